package widget

import (
	"bytes"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
)

// maxIndexedCell bounds how much of one cell the filter index keeps: enough
// for any id, address or name, and a hostile megabyte-long cell cannot
// blow up the index.
const maxIndexedCell = 512

// filterIndex holds every row's cells, sanitized and lowercased, in one
// buffer: cells separated by NUL, rows ended by a newline. Sanitized cells
// contain neither byte, so a match never spans two cells or two rows, and
// one bytes.Index call can skip over thousands of rows that do not match.
type filterIndex struct {
	text   []byte
	starts []int // starts[i] is where row i begins; starts[n] = len(text)
}

func buildIndex[R any](rows []R, cols []Column[R]) *filterIndex {
	ix := &filterIndex{starts: make([]int, 0, len(rows)+1)}
	for i, r := range rows {
		if i == 1 {
			// Size the buffer from the first row instead of doubling it
			// twenty times on the way to a hundred megabytes.
			ix.text = slices.Grow(ix.text, len(ix.text)*len(rows)*9/8)
		}
		ix.starts = append(ix.starts, len(ix.text))
		for c, col := range cols {
			if c > 0 {
				ix.text = append(ix.text, 0)
			}
			ix.text = appendLower(ix.text, clip(sanitize.Line(col.Cell(r)), maxIndexedCell))
		}
		ix.text = append(ix.text, '\n')
	}
	ix.starts = append(ix.starts, len(ix.text))
	return ix
}

// clip cuts s to at most n bytes without splitting a rune.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func lowerQuery(q string) []byte {
	return appendLower(nil, sanitize.Line(q))
}

// filter returns the indexes of the rows containing q, in the order given.
func (ix *filterIndex) filter(q []byte, order []int) []int {
	n := len(ix.starts) - 1
	match := make([]uint64, (n+63)/64)
	count := 0
	row := 0
	for pos := 0; pos < len(ix.text); {
		k := bytes.Index(ix.text[pos:], q)
		if k < 0 {
			break
		}
		at := pos + k
		// Rows only move forward, so walking is cheaper than a binary
		// search when matches are dense, and costs O(n) in all.
		for ix.starts[row+1] <= at {
			row++
		}
		match[row/64] |= 1 << (row % 64)
		count++
		pos = ix.starts[row+1]
	}
	view := make([]int, 0, count)
	for _, i := range order {
		if match[i/64]&(1<<(i%64)) != 0 {
			view = append(view, i)
		}
	}
	return view
}

// FilterIndices returns the rows that match query, as indexes into the
// slice given to SetRows, in display order: the answer the debounced
// filter computes in the background, computed here on the caller's
// goroutine. The lowercase index is built on first use and kept. An empty
// query matches every row.
func (t *Table[R]) FilterIndices(query string) []int {
	if query == "" {
		return slices.Clone(t.order)
	}
	if t.index == nil {
		t.index = buildIndex(t.rows, t.cols)
	}
	return t.index.filter(lowerQuery(query), t.order)
}

// filterTick fires when the filter input has been quiet for the debounce
// time; seq tells whether a later keystroke superseded it.
type filterTick struct {
	tag, seq int64
}

func (t *Table[R]) startEditing() tea.Cmd {
	t.editing = true
	t.input.SetValue(t.query)
	t.input.CursorEnd()
	return t.input.Focus()
}

func (t *Table[R]) stopEditing() {
	t.editing = false
	t.input.Blur()
	t.filterSeq++ // a pending tick must not apply the query again
}

// updateInput handles a key while the filter input has the keyboard.
func (t *Table[R]) updateInput(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, t.keys.AcceptFilter):
		t.stopEditing()
		return t.applyQuery(t.input.Value())
	case key.Matches(msg, t.keys.CancelFilter):
		return t.clearFilter()
	case msg.Type == tea.KeyDown:
		t.move(1)
		return nil
	case msg.Type == tea.KeyUp:
		t.move(-1)
		return nil
	}
	before := t.input.Value()
	var cmd tea.Cmd
	t.input, cmd = t.input.Update(msg)
	if t.input.Value() == before {
		return cmd
	}
	t.filterSeq++
	tag, seq := t.tag, t.filterSeq
	return tea.Batch(cmd, tea.Tick(t.debounce, func(time.Time) tea.Msg {
		return filterTick{tag: tag, seq: seq}
	}))
}

func (t *Table[R]) clearFilter() tea.Cmd {
	t.stopEditing()
	t.input.SetValue("")
	return t.applyQuery("")
}

// applyQuery puts query in force: OnFilter may take it over; otherwise the
// table filters in the background. A new query moves the cursor to the
// first match; clearing the filter keeps the focused row focused.
func (t *Table[R]) applyQuery(query string) tea.Cmd {
	if query == t.query {
		return nil
	}
	t.query = query
	var cmds []tea.Cmd
	handled := false
	if t.onFilter != nil {
		var cmd tea.Cmd
		cmd, handled = t.onFilter(query)
		cmds = append(cmds, cmd)
	}
	t.remote = handled
	if !handled || t.applied != "" {
		cmds = append(cmds, t.reorder(query != "" && !handled, "filtering"))
	}
	return tea.Batch(cmds...)
}

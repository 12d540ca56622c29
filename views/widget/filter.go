package widget

import (
	"bytes"
	"slices"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
)

// maxIndexedCell bounds how much of one cell the filter index keeps: enough
// for any id, address or name, and a hostile megabyte-long cell cannot
// blow up the index.
const maxIndexedCell = 512

// filterIndex holds every row's cells, sanitized and lowercased, in
// segments of consecutive rows. In a segment's buffer, cells are separated
// by NUL and rows ended by a newline. Sanitized cells contain neither byte,
// so a match never spans two cells or two rows, and one bytes.Index call
// can skip over thousands of rows that do not match. A segment never
// changes once built: rows that arrive later get segments of their own
// (extendIndex), so a background job may read an index while the next job
// extends it.
type filterIndex struct {
	segs []*indexSegment
	rows int // rows covered: the segments hold rows 0..rows-1, in order
}

type indexSegment struct {
	first  int // the segment's first row
	text   []byte
	starts []uint32 // starts[i] is where row first+i begins; len(text) last
}

// maxSegmentText bounds one segment's buffer, so that offsets fit in a
// uint32 whatever the rows hold.
const maxSegmentText = 1 << 30

// rowText appends the text the filter searches in a row: lowercase, cells
// separated by NUL, without a newline.
type rowText[R any] func(dst []byte, r *R) []byte

// cellsText is every column's cell, sanitized and lowercased.
func cellsText[R any](cols []Column[R]) rowText[R] {
	return func(dst []byte, r *R) []byte {
		for c, col := range cols {
			if c > 0 {
				dst = append(dst, 0)
			}
			dst = appendLower(dst, clip(sanitize.Line(col.Cell(*r)), maxIndexedCell))
		}
		return dst
	}
}

// maxIndexedText bounds what TableConfig.FilterText may add for one row.
const maxIndexedText = 4 * maxIndexedCell

// customText is a screen's FilterText, made safe for the index: cut to
// maxIndexedText, ASCII letters lowercased, and every control byte a NUL
// (a separator no query contains), so that nothing it writes can end a
// row or join two fields into a match.
func customText[R any](f func(dst []byte, r R) []byte) rowText[R] {
	return func(dst []byte, r *R) []byte {
		start := len(dst)
		dst = f(dst, *r)
		dst = dst[:min(len(dst), start+maxIndexedText)]
		for i := start; i < len(dst); i++ {
			switch c := dst[i]; {
			case c < 0x20 || c == 0x7f:
				dst[i] = 0
			case 'A' <= c && c <= 'Z':
				dst[i] = c + 'a' - 'A'
			}
		}
		return dst
	}
}

func buildIndex[R any](rows RowSet[R], text rowText[R]) *filterIndex {
	return extendIndex(nil, rows, text)
}

// extendIndex returns the index of rows, reusing ix (the index of a prefix
// of them, or nil) and indexing only the rows after that prefix. ix itself
// is not modified.
func extendIndex[R any](ix *filterIndex, rows RowSet[R], text rowText[R]) *filterIndex {
	out := &filterIndex{}
	if ix != nil {
		out.segs, out.rows = slices.Clip(ix.segs), ix.rows
	}
	for out.rows < rows.Len() {
		seg := indexRows(rows, out.rows, text)
		out.segs = append(out.segs, seg)
		out.rows += len(seg.starts) - 1
	}
	return out
}

// indexRows indexes rows from first on, until the end or until the buffer
// reaches maxSegmentText.
func indexRows[R any](rows RowSet[R], first int, text rowText[R]) *indexSegment {
	n := rows.Len()
	seg := &indexSegment{first: first, starts: make([]uint32, 0, n-first+1)}
	for i := first; i < n && len(seg.text) < maxSegmentText; i++ {
		if i == first+1 {
			// Size the buffer from the first row instead of doubling it
			// twenty times on the way to a hundred megabytes.
			seg.text = slices.Grow(seg.text, len(seg.text)*(n-first)*9/8)
		}
		seg.starts = append(seg.starts, uint32(len(seg.text)))
		seg.text = append(text(seg.text, rows.At(i)), '\n')
	}
	seg.starts = append(seg.starts, uint32(len(seg.text)))
	return seg
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
	return ix.filterFrom(q, order, 0)
}

// filterFrom returns the indexes in order of the rows from row from on that
// contain q, for rows that arrived after a view was filtered.
func (ix *filterIndex) filterFrom(q []byte, order []int, from int) []int {
	match := make([]uint64, (ix.rows+63)/64)
	count := 0
	for _, seg := range ix.segs {
		if seg.first+len(seg.starts)-1 <= from {
			continue
		}
		count += seg.match(q, match)
	}
	view := make([]int, 0, count)
	for _, i := range order {
		if i >= from && match[i/64]&(1<<(i%64)) != 0 {
			view = append(view, i)
		}
	}
	return view
}

// match sets the bits of the segment's rows that contain q and counts them.
func (seg *indexSegment) match(q []byte, bits []uint64) int {
	count, row := 0, 0
	for pos := 0; pos < len(seg.text); {
		k := bytes.Index(seg.text[pos:], q)
		if k < 0 {
			break
		}
		at := uint32(pos + k)
		// Rows only move forward, so walking is cheaper than a binary
		// search when matches are dense, and costs O(n) in all.
		for seg.starts[row+1] <= at {
			row++
		}
		i := seg.first + row
		bits[i/64] |= 1 << (i % 64)
		count++
		pos = int(seg.starts[row+1])
	}
	return count
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
		t.index = buildIndex(t.rows, t.text)
	}
	return t.index.filter(lowerQuery(query), t.order)
}

// filterTick fires when the filter input has been quiet for the debounce
// time; from is the table that set it off (a screen may hold several),
// and seq tells whether a later keystroke superseded it.
type filterTick struct {
	from any
	seq  int64
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
	if cmd, handled := t.Bindings().Dispatch(msg); handled {
		return cmd
	}
	before := t.input.Value()
	var cmd tea.Cmd
	t.input, cmd = t.input.Update(msg)
	if t.input.Value() == before {
		return cmd
	}
	t.filterSeq++
	seq := t.filterSeq
	return tea.Batch(cmd, tea.Tick(t.debounce, func(time.Time) tea.Msg {
		return filterTick{from: t, seq: seq}
	}))
}

// ClearFilter ends the filter, as esc does: every row is shown again,
// the focused row staying focused.
func (t *Table[R]) ClearFilter() tea.Cmd { return t.clearFilter() }

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

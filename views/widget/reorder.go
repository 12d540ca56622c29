package widget

import (
	"cmp"
	"math"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
)

// job is the O(n) part of a change to the table's rows, sort or filter,
// captured so that it can run in a tea.Cmd: everything it reads is either
// immutable (rows already given are never changed, orders, views and index
// segments are replaced, never modified) or a copy.
//
// A job may start from the table's current state: order, view and index
// then cover the first from rows, and only the rows after them are sorted,
// filtered and merged in. That is what keeps a streamed answer cheap to
// show: each batch costs its own size plus a merge, never a sort of all
// the rows again.
type job[R any] struct {
	table    *Table[R] // the one that started it: a screen may hold several
	seq, gen int64
	rows     RowSet[R]
	cols     []Column[R]
	text     rowText[R]
	id       func(R) string
	sort     sortKey
	from     int   // rows covered by order, view and index
	order    []int // order of rows[:from] for sort, or nil
	view     []int // order filtered by query, or nil
	index    *filterIndex
	query    string
	focus    string // ID of the focused row, to find it again
	focusRow int    // its index in rows when they only grew, else -1
	hasFocus bool
	top      bool
	// shown and shownOrder are the rows on show and their order, for a
	// refresh that keeps it (RefreshRowSet); shownOrder is nil otherwise.
	shown      RowSet[R]
	shownOrder []int
}

// jobDone is a job's result, delivered to Update.
type jobDone[R any] struct {
	table       *Table[R]
	seq, gen    int64
	rows        RowSet[R]
	sort        sortKey
	order, view []int
	index       *filterIndex
	query       string
	focus       string
	focusRow    int
	focusPos    int // position of the focused row in view, -1 if gone
	top         bool
}

func (j job[R]) run() jobDone[R] {
	d := jobDone[R]{
		table: j.table, seq: j.seq, gen: j.gen,
		rows: j.rows, sort: j.sort, index: j.index,
		query: j.query, focus: j.focus, focusRow: j.focusRow, focusPos: -1, top: j.top,
	}
	grown := j.order != nil && j.from < j.rows.Len()
	switch {
	case j.shownOrder != nil:
		d.order = keepOrder(j.shown, j.shownOrder, j.rows, j.id, j.cols, j.sort)
		d.sort.kept = true
	case j.order == nil:
		d.order = sortRows(j.rows, j.cols, j.sort)
	case grown:
		d.order = mergeRows(j.rows, j.cols, j.sort, j.order, sortRange(j.rows, j.cols, j.sort, j.from))
	default:
		d.order = j.order
	}
	d.view = d.order
	if j.query != "" {
		if d.index == nil || d.index.rows < j.rows.Len() {
			d.index = extendIndex(d.index, j.rows, j.text)
		}
		q := lowerQuery(j.query)
		switch {
		case j.view != nil && !grown:
			d.view = j.view
		case j.view != nil:
			d.view = mergeRows(j.rows, j.cols, j.sort, j.view, d.index.filterFrom(q, d.order, j.from))
		default:
			d.view = d.index.filter(q, d.order)
		}
	} else if d.index != nil && d.index.rows < j.rows.Len() {
		// Kept up to date only while a filter needs it; the next filter
		// builds it again.
		d.index = nil
	}
	if j.hasFocus && !j.top {
		for pos, i := range d.view {
			if j.focusRow >= 0 && i == j.focusRow || j.focusRow < 0 && j.id(*j.rows.At(i)) == j.focus {
				d.focusPos = pos
				break
			}
		}
	}
	return d
}

// sortRows returns the row indexes in the order of key. The sort is stable,
// so rows that compare equal keep the order they were given in.
func sortRows[R any](rows RowSet[R], cols []Column[R], key sortKey) []int {
	return sortRange(rows, cols, key, 0)
}

// sortRange returns the indexes of rows[from:] in the order of key.
func sortRange[R any](rows RowSet[R], cols []Column[R], key sortKey, from int) []int {
	order := make([]int, rows.Len()-from)
	for i := range order {
		order[i] = from + i
	}
	if key.col < 0 {
		return order
	}
	// A row index must fit the 32 bits a keyed entry holds.
	if cols[key.col].SortKey != nil && uint64(rows.Len()) <= math.MaxUint32 {
		return sortByKeys(rows, cols, key, order)
	}
	slices.SortStableFunc(order, rowCompare(rows, cols, key))
	return order
}

// keyed is a row's sort key, held with its index: 32 bytes, so that a
// sort moves little.
type keyed struct {
	key   [3]uint64
	row   uint32
	exact bool
}

// sortByKeys sorts order, the indexes of rows, by the column's SortKey:
// the keys first, side by side, then the rows whose keys tie and are not
// exact, then the row index among equals: order comes ascending, so this
// is the stable sort's result.
func sortByKeys[R any](rows RowSet[R], cols []Column[R], key sortKey, order []int) []int {
	keyOf, rowCmp := cols[key.col].SortKey, rowCompare(rows, cols, sortKey{col: key.col})
	ks := make([]keyed, len(order))
	for n, i := range order {
		k, exact := keyOf(rows.At(i))
		ks[n] = keyed{key: k, row: uint32(i), exact: exact}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		c := cmp.Compare(a.key[0], b.key[0])
		if c == 0 {
			c = cmp.Compare(a.key[1], b.key[1])
		}
		if c == 0 {
			c = cmp.Compare(a.key[2], b.key[2])
		}
		if c == 0 && !(a.exact && b.exact) {
			c = rowCmp(int(a.row), int(b.row))
		}
		if key.desc {
			c = -c
		}
		if c == 0 {
			c = cmp.Compare(a.row, b.row)
		}
		return c
	})
	for n := range ks {
		order[n] = int(ks[n].row)
	}
	return order
}

func rowCompare[R any](rows RowSet[R], cols []Column[R], key sortKey) func(a, b int) int {
	if ref := cols[key.col].SortRef; ref != nil {
		if key.desc {
			return func(a, b int) int { return ref(rows.At(b), rows.At(a)) }
		}
		return func(a, b int) int { return ref(rows.At(a), rows.At(b)) }
	}
	cmp := cols[key.col].Sort
	if key.desc {
		return func(a, b int) int { return cmp(*rows.At(b), *rows.At(a)) }
	}
	return func(a, b int) int { return cmp(*rows.At(a), *rows.At(b)) }
}

// mergeRows merges two lists of row indexes, each in the order of key, into
// a new one. Every index in a is smaller than every index in b, so taking a
// first among equals is what a stable sort of them all would give.
func mergeRows[R any](rows RowSet[R], cols []Column[R], key sortKey, a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	if key.col < 0 {
		return append(append(out, a...), b...)
	}
	cmp := rowCompare(rows, cols, key)
	for len(a) > 0 && len(b) > 0 {
		if cmp(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// reorder starts a job that brings the view up to date with the newest
// rows, the requested sort and the local filter, reusing the current order,
// view and index when they still apply. top puts the cursor on the first
// row when the job is done (a new filter); otherwise the focused row keeps
// the cursor. note names the work for the footer meanwhile.
func (t *Table[R]) reorder(top bool, note string) tea.Cmd {
	return t.newJob(top, note).cmd()
}

// newJob is the job reorder starts, for a caller that adds to it.
func (t *Table[R]) newJob(top bool, note string) job[R] {
	t.jobSeq++
	t.pending = note
	j := job[R]{
		table: t, seq: t.jobSeq, gen: t.nextGen,
		rows: t.next, cols: t.cols, text: t.text, id: t.id,
		sort: t.sort, query: t.localQuery(), top: top, focusRow: -1,
	}
	j.focus, j.hasFocus = t.focusedID()
	if t.nextGen == t.rowsGen {
		// The rows on screen are a prefix of the newest: what was
		// computed for them still holds.
		j.from, j.index = t.rows.Len(), t.index
		if t.orderSort == t.sort {
			j.order = t.order
			if t.applied == j.query {
				j.view = t.view
			}
		}
		if j.hasFocus {
			j.focusRow = t.view[t.cursor]
		}
	}
	return j
}

// cmd runs the job off the UI goroutine.
func (j job[R]) cmd() tea.Cmd { return func() tea.Msg { return j.run() } }

// finish applies a job's result unless a newer job has started since, and
// starts the next when rows arrived meanwhile.
func (t *Table[R]) finish(d jobDone[R]) tea.Cmd {
	if d.seq != t.jobSeq {
		return nil
	}
	// The focused row, by index while the rows only grew (an ID costs a
	// Cell-like call per row to compare), else by ID.
	focusRow, sameRows := -1, d.gen == t.rowsGen
	var focus string
	if len(t.view) > 0 {
		focusRow = t.view[t.cursor]
		if !sameRows {
			focus = t.id(*t.rows.At(focusRow))
		}
	}
	t.pending = ""
	if !sameRows {
		t.cache.reset() // lines are cached by row index
	}
	t.rows, t.rowsGen = d.rows, d.gen
	t.order, t.orderSort, t.view = d.order, d.sort, d.view
	t.index, t.applied = d.index, d.query
	pos := -1
	switch {
	case d.top:
		pos = 0
	case focusRow < 0:
	case sameRows && focusRow == d.focusRow:
		pos = d.focusPos
	case sameRows:
		// The user moved while the job ran.
		pos = slices.Index(t.view, focusRow)
	case focus == d.focus:
		pos = d.focusPos
	default:
		pos = t.find(focus)
	}
	t.place(pos)
	return t.catchUp()
}

// cycleSort moves to the next sort order: each sortable column ascending,
// then descending, then the given order again.
func (t *Table[R]) cycleSort() tea.Cmd {
	next := nextSort(t.cols, t.widths, t.sort)
	if next == t.sort {
		return nil
	}
	t.sort = next
	t.header = t.renderHeader()
	return t.reorder(false, "sorting")
}

// nextSort is the sort after cur: the same column descending, else the next
// sortable column on screen ascending, else the given order. A column the
// width has dropped is skipped: its order could not be seen. widths nil
// means every column is on screen (the table has no size yet).
func nextSort[R any](cols []Column[R], widths []int, cur sortKey) sortKey {
	if cur.col >= 0 && !cur.desc {
		return sortKey{col: cur.col, desc: true}
	}
	for c := cur.col + 1; c < len(cols); c++ {
		if cols[c].sortable() && (widths == nil || widths[c] > 0) {
			return sortKey{col: c}
		}
	}
	return unsorted
}

// sortLabel names the sort in force for the footer, "Amount ↓"; empty in
// the given order.
func (t *Table[R]) sortLabel() string {
	if t.sort.col < 0 {
		return ""
	}
	arrow := "↑"
	if t.sort.desc {
		arrow = "↓"
	}
	return "sort " + sanitize.Line(t.cols[t.sort.col].Title) + " " + arrow
}

func (t *Table[R]) sortable() bool {
	for _, c := range t.cols {
		if c.sortable() {
			return true
		}
	}
	return false
}

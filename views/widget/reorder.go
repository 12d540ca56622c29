package widget

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
)

// job is the O(n) part of a change to the table's rows, sort or filter,
// captured so that it can run in a tea.Cmd: everything it reads is either
// immutable (row slices, orders, the index are replaced, never modified) or
// a copy.
type job[R any] struct {
	tag, seq, gen int64
	rows          []R
	cols          []Column[R]
	id            func(R) string
	sort          sortKey
	order         []int // reusable order for sort, or nil
	index         *filterIndex
	query         string
	focus         string // ID of the focused row, to find it again
	hasFocus      bool
	top           bool
}

// jobDone is a job's result, delivered to Update.
type jobDone[R any] struct {
	tag, seq, gen int64
	rows          []R
	sort          sortKey
	order, view   []int
	index         *filterIndex
	query         string
	focus         string
	focusPos      int // position of the focused row in view, -1 if gone
	top           bool
}

func (j job[R]) run() jobDone[R] {
	d := jobDone[R]{
		tag: j.tag, seq: j.seq, gen: j.gen,
		rows: j.rows, sort: j.sort, order: j.order, index: j.index,
		query: j.query, focus: j.focus, focusPos: -1, top: j.top,
	}
	if d.order == nil {
		d.order = sortRows(j.rows, j.cols, j.sort)
	}
	d.view = d.order
	if j.query != "" {
		if d.index == nil {
			d.index = buildIndex(j.rows, j.cols)
		}
		d.view = d.index.filter(lowerQuery(j.query), d.order)
	}
	if j.hasFocus && !j.top {
		for pos, i := range d.view {
			if j.id(j.rows[i]) == j.focus {
				d.focusPos = pos
				break
			}
		}
	}
	return d
}

// sortRows returns the row indexes in the order of key. The sort is stable,
// so rows that compare equal keep the order they were given in.
func sortRows[R any](rows []R, cols []Column[R], key sortKey) []int {
	order := identity(len(rows))
	if key.col < 0 {
		return order
	}
	cmp := cols[key.col].Sort
	if key.desc {
		slices.SortStableFunc(order, func(a, b int) int { return cmp(rows[b], rows[a]) })
	} else {
		slices.SortStableFunc(order, func(a, b int) int { return cmp(rows[a], rows[b]) })
	}
	return order
}

// reorder starts a job that brings the view up to date with the newest
// rows, the requested sort and the local filter, reusing the current order
// and index when they still apply. top puts the cursor on the first row
// when the job is done (a new filter); otherwise the focused row keeps the
// cursor. note names the work for the footer meanwhile.
func (t *Table[R]) reorder(top bool, note string) tea.Cmd {
	t.jobSeq++
	t.pending = note
	j := job[R]{
		tag: t.tag, seq: t.jobSeq, gen: t.nextGen,
		rows: t.next, cols: t.cols, id: t.id,
		sort: t.sort, query: t.localQuery(), top: top,
	}
	if t.nextGen == t.rowsGen {
		j.index = t.index
		if t.orderSort == t.sort {
			j.order = t.order
		}
	}
	j.focus, j.hasFocus = t.focusedID()
	return func() tea.Msg { return j.run() }
}

// finish applies a job's result unless a newer job has started since.
func (t *Table[R]) finish(d jobDone[R]) {
	if d.seq != t.jobSeq {
		return
	}
	focus, hasFocus := t.focusedID()
	t.pending = ""
	if d.gen != t.rowsGen {
		t.rows, t.rowsGen = d.rows, d.gen
		t.cache.reset()
	}
	t.order, t.orderSort, t.view = d.order, d.sort, d.view
	t.index, t.applied = d.index, d.query
	pos := -1
	switch {
	case d.top:
		pos = 0
	case hasFocus && focus == d.focus:
		pos = d.focusPos
	case hasFocus:
		// The user moved while the job ran: look for the row now focused.
		pos = t.find(focus)
	}
	t.place(pos)
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
		if cols[c].Sort != nil && (widths == nil || widths[c] > 0) {
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
		if c.Sort != nil {
			return true
		}
	}
	return false
}

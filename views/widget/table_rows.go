package widget

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"
)

// SetRows replaces the rows. The table keeps the slice (it does not copy
// it) and reads it from background jobs, so the caller must not modify it
// afterwards. The cursor
// stays on the row with the same ID when there is one.
//
// When a sort or a filter is active, the new rows are sorted and filtered in
// the returned command and replace the old ones on screen when that is done;
// so are many rows when the cursor is on a row to find among them.
// Otherwise they show at once and the command is nil.
func (t *Table[R]) SetRows(rows []R) tea.Cmd {
	return t.SetRowSet(RowsOf(rows))
}

// SetRowSet is SetRows for rows a table gave out (Rows): a screen that
// showed other rows for a while gives its own back without copying them.
// When they are the rows the table showed before the last SetRows (with
// rows appended since, perhaps), their order, filter index and cursor come
// back as they were, rather than sorting a million rows again.
func (t *Table[R]) SetRowSet(rows RowSet[R]) tea.Cmd {
	before := t.replaced
	t.replaced = &shownState[R]{rows: t.rows, order: t.order, view: t.view, orderSort: t.orderSort,
		applied: t.applied, index: t.index, cursor: t.cursor, offset: t.offset}
	if before != nil && before.rows.Len() > 0 && extends(rows, before.rows) {
		return t.restore(before, rows)
	}
	return t.replace(rows, false)
}

// replace shows rows in place of those on show; keep says to keep the
// order on show under the sort (a refresh: RefreshRowSet).
func (t *Table[R]) replace(rows RowSet[R], keep bool) tea.Cmd {
	t.next = rows
	t.nextGen++
	t.measure(rows)
	focus, hasFocus := t.focusedID()
	// Finding the focused row calls ID on every row: at a million rows
	// that is longer than a frame, so a job does it.
	if t.sort.col >= 0 || t.localQuery() != "" || hasFocus && rows.Len() > findInFrame {
		j := t.newJob(false, "updating")
		if keep {
			j.shown, j.shownOrder = t.rows, t.order
		}
		return j.cmd()
	}
	t.jobSeq++ // a job still running worked on older rows
	t.pending = ""
	t.rows, t.rowsGen = rows, t.nextGen
	t.order = identity(rows.Len())
	t.orderSort = unsorted
	t.view = t.order
	t.index = nil
	t.applied = ""
	t.cache.reset()
	pos := -1
	if hasFocus {
		pos = t.find(focus)
	}
	t.place(pos)
	return nil
}

// extends reports whether rows are old with rows appended: the same rows
// at the same addresses. Only the last chunk of a RowSet is ever copied,
// so its last row tells.
func extends[R any](rows, old RowSet[R]) bool {
	n := old.Len()
	return rows.Len() >= n && rows.At(0) == old.At(0) && rows.At(n-1) == old.At(n-1)
}

// measure sizes the columns for the cells of the first rows.
func (t *Table[R]) measure(rows RowSet[R]) {
	t.content, t.ids, t.fracs = contentWidths(t.cols, rows)
	t.natural = naturalWidth(t.content)
	if w := layout(t.cols, t.width, t.content, t.ids); t.width > 0 && !slices.Equal(w, t.widths) {
		// The new cells ask for other widths.
		t.widths = w
		t.cache.reset()
		t.header = t.renderHeader()
	}
}

// restore shows the rows of st again, with rows the rows arrived since.
func (t *Table[R]) restore(st *shownState[R], rows RowSet[R]) tea.Cmd {
	t.next = rows
	t.nextGen++
	t.measure(rows)
	t.jobSeq++ // a job still running worked on other rows
	t.pending = ""
	t.rows, t.rowsGen = st.rows, t.nextGen
	t.order, t.orderSort, t.view = st.order, st.orderSort, st.view
	t.applied, t.index = st.applied, st.index
	t.cache.reset()
	t.cursor, t.offset = st.cursor, st.offset
	t.setCursor(t.cursor)
	if t.orderSort != t.sort || t.applied != t.localQuery() || rows.Len() > st.rows.Len() {
		// The sort or the filter changed meanwhile, or rows arrived.
		return t.reorder(false, "updating")
	}
	return nil
}

// AppendRows adds rows after the last, as a long answer arrives in
// batches. The table copies them: the caller may reuse more. The rows on
// screen keep their places and their cached lines. In the given order and
// unfiltered, the new rows show at once; under a sort or a local filter, a
// background job sorts and filters the new rows alone and merges them in,
// and rows that arrive while it runs wait for the next job.
func (t *Table[R]) AppendRows(more []R) tea.Cmd {
	return t.ExtendRows(t.next.Append(more))
}

// ExtendRows is AppendRows for a caller that appends to a RowSet of its
// own, on another goroutine for example: rows must be the set given last
// (SetRowSet, ExtendRows) with rows appended. The table reads the new rows
// where they are, without copying them.
func (t *Table[R]) ExtendRows(rows RowSet[R]) tea.Cmd {
	before := t.next.Len()
	if rows.Len() <= before {
		return nil
	}
	t.next = rows
	// Rows that grow are a stream, not a subset shown for a while: the
	// rows it replaced are not coming back, and may be many.
	t.replaced = nil
	if before < contentSample {
		t.measure(t.next)
	}
	if t.pending != "" {
		return nil // the job running now starts the next when it is done
	}
	return t.catchUp()
}

// catchUp brings the view up to the rows appended since it was computed.
func (t *Table[R]) catchUp() tea.Cmd {
	if t.nextGen != t.rowsGen || t.next.Len() == t.rows.Len() {
		return nil
	}
	if t.sort.col >= 0 || t.localQuery() != "" {
		return t.reorder(false, "updating")
	}
	// Nothing to sort or filter: the new rows go at the end. A job reading
	// the old order reads no further than its length, and the unfiltered
	// view is the order itself.
	if n := t.next.Len(); cap(t.order) < n {
		// Doubled, not grown by a quarter as append would: a million
		// rows arriving in batches copy the order a few times, not
		// dozens.
		t.order = slices.Grow(t.order, max(n, 2*cap(t.order))-len(t.order))
	}
	for i := t.rows.Len(); i < t.next.Len(); i++ {
		t.order = append(t.order, i)
	}
	t.rows, t.view = t.next, t.order
	t.index = nil // it covers the old rows only; the next filter builds it
	t.setCursor(t.cursor)
	return nil
}

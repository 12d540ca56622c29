package widget

import tea "github.com/charmbracelet/bubbletea"

// A refresh reads the same rows again: values change, a few rows come and
// go. Sorting them anew would move rows under the user's eyes, the one on
// the cursor's neighbours jumping for a new amount, so under a sort a
// refresh keeps the order on show, and only what the user does (a new
// sort, a new filter, SetRows for a load asked for) sorts anew.

// RefreshRows replaces the rows with a newer reading of the same rows, as
// SetRows does, but keeps the order on show: under a sort, the rows known
// before stay in the order they were shown in, with their new values;
// rows gone are dropped; a new row goes just after the row the sort puts
// before it. The filter in force applies to the new values.
// The cursor stays on its row, on the same line of the screen. Without a
// sort, or while a sort or a filter is still being applied, the rows show
// as SetRows shows them.
func (t *Table[R]) RefreshRows(rows []R) tea.Cmd { return t.RefreshRowSet(RowsOf(rows)) }

// RefreshRowSet is RefreshRows for rows in a RowSet.
func (t *Table[R]) RefreshRowSet(rows RowSet[R]) tea.Cmd {
	settled := t.pending == "" && t.nextGen == t.rowsGen && t.applied == t.localQuery() &&
		t.orderSort.col == t.sort.col && t.orderSort.desc == t.sort.desc
	// The rows before a refresh are not coming back (the screen holds the
	// new ones): keeping them for SetRowSet to restore would hold a pool
	// of stakes twice.
	t.replaced = nil
	return t.replace(rows, t.sort.col >= 0 && settled && t.rows.Len() > 0)
}

// keepOrder returns the indexes of rows in the order shownOrder gives the
// same rows (by id) in shown, the rows read before: rows gone are left
// out, and each new row goes just after the row the sort (key) puts
// before it, first when none. A sort of the rows runs only when new rows
// came.
func keepOrder[R any](shown RowSet[R], shownOrder []int, rows RowSet[R], id func(R) string, cols []Column[R], key sortKey) []int {
	now := sameRows(shown, rows, id)
	placed := make([]bool, rows.Len())
	known := make([]int, 0, rows.Len())
	for _, i := range shownOrder {
		if j := now[i]; j >= 0 && !placed[j] {
			placed[j] = true
			known = append(known, j)
		}
	}
	if len(known) == rows.Len() {
		return known
	}
	// after holds the new rows that go after each row on show, in the
	// sort's order; after[-1] those the sort puts before them all.
	after := map[int][]int{}
	prev := -1
	for _, j := range sortRows(rows, cols, key) {
		if placed[j] {
			prev = j
		} else {
			after[prev] = append(after[prev], j)
		}
	}
	order := append(make([]int, 0, rows.Len()), after[-1]...)
	for _, j := range known {
		order = append(append(order, j), after[j]...)
	}
	return order
}

// sameRows returns, for each row of old, the index of the row of rows with
// its id, or -1 when it is gone. A service gives its rows in the same order
// read after read, new ones added at the end: the rows at the same place
// are compared first, and only those after the first that differs are
// looked up by id.
func sameRows[R any](old, rows RowSet[R], id func(R) string) []int {
	now := make([]int, old.Len())
	same := 0
	for same < min(old.Len(), rows.Len()) && id(*old.At(same)) == id(*rows.At(same)) {
		now[same] = same
		same++
	}
	if same == old.Len() {
		return now
	}
	at := make(map[string]int, rows.Len()-same)
	for j := same; j < rows.Len(); j++ {
		at[id(*rows.At(j))] = j
	}
	for i := same; i < old.Len(); i++ {
		j, ok := at[id(*old.At(i))]
		if !ok {
			j = -1
		}
		now[i] = j
	}
	return now
}

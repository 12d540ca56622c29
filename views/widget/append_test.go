package widget

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// shownIDs is the IDs of the rows the table shows, in order.
func shownIDs(tb *Table[stake]) []string {
	ids := make([]string, len(tb.view))
	for i, r := range tb.view {
		ids[i] = tb.rows.At(r).ID
	}
	return ids
}

// wholeTable is what a table shows of rows given at once, sorted by col
// (desc) and filtered by query: what a table fed in batches must end with.
func wholeTable(t *testing.T, rows []stake, col int, desc bool, query string) []string {
	t.Helper()
	tb := newStakeTable(rows, 120, 20, TableConfig[stake]{})
	if col >= 0 {
		settle(tb, tb.SortBy(col, desc))
	}
	if query != "" {
		press(tb, "/")
		press(tb, strings.Split(query, "")...)
		press(tb, "enter")
	}
	return shownIDs(tb)
}

// TestTableAppendRowsShowsThemAtOnce: in the given order and unfiltered,
// appended rows show without a job, the cursor stays on its row, and the
// batch the caller passed may be reused.
func TestTableAppendRowsShowsThemAtOnce(t *testing.T) {
	rows := makeStakes(300)
	tb := newStakeTable(nil, 120, 12, TableConfig[stake]{})
	batch := make([]stake, 0, 100)
	for i := 0; i < len(rows); i += 100 {
		batch = append(batch[:0], rows[i:i+100]...)
		if cmd := tb.AppendRows(batch); cmd != nil {
			t.Fatalf("batch %d: AppendRows returned a command with nothing to sort or filter", i/100)
		}
		clear(batch) // the caller reuses its batch
		if i == 0 {
			press(tb, "down", "down")
		}
	}
	if got, want := shownIDs(tb), idsOf(rows); !slices.Equal(got, want) {
		t.Fatalf("the table shows %d rows, not the 300 appended in order", len(got))
	}
	if got := selectedID(t, tb); got != rows[2].ID {
		t.Errorf("focused %s after the appends, want row 2 still", got)
	}
	if view := tb.View(); !strings.Contains(view, "3/300") {
		t.Errorf("the footer does not count the appended rows:\n%s", view)
	}
}

func idsOf(rows []stake) []string {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return ids
}

// TestTableAppendRowsUnderSortAndFilter: rows appended under a sort and a
// filter end in the order and the subset the same rows given at once show,
// whether each batch settles before the next arrives or batches pile up
// while a job runs.
func TestTableAppendRowsUnderSortAndFilter(t *testing.T) {
	rows := makeStakes(2000)
	cases := []struct {
		name  string
		col   int
		desc  bool
		query string
	}{
		{"sorted", 2, false, ""},
		{"sorted descending", 2, true, ""},
		{"filtered", -1, false, "0x7"},
		{"sorted and filtered", 4, true, "withdrawn"},
	}
	for _, c := range cases {
		want := wholeTable(t, rows, c.col, c.desc, c.query)
		for _, pileUp := range []bool{false, true} {
			tb := newStakeTable(rows[:10], 120, 20, TableConfig[stake]{Debounce: time.Millisecond}) // press waits out each tick
			if c.col >= 0 {
				settle(tb, tb.SortBy(c.col, c.desc))
			}
			if c.query != "" {
				press(tb, "/")
				press(tb, strings.Split(c.query, "")...)
				press(tb, "enter")
			}
			var held []tea.Cmd
			for i := 10; i < len(rows); i += 333 {
				cmd := tb.AppendRows(rows[i:min(i+333, len(rows))])
				if pileUp {
					held = append(held, cmd)
				} else {
					settle(tb, cmd)
				}
			}
			for _, cmd := range held {
				settle(tb, cmd)
			}
			if got := shownIDs(tb); !slices.Equal(got, want) {
				t.Errorf("%s (batches pile up: %v): the table shows %d rows, not the %d (in the same order) of the rows given at once",
					c.name, pileUp, len(got), len(want))
			}
		}
	}
}

// TestTableAppendRowsKeepsTheFocusedRow: under a sort, rows merged in
// above the focused row do not take the cursor away from it.
func TestTableAppendRowsKeepsTheFocusedRow(t *testing.T) {
	rows := makeStakes(1000)
	tb := newStakeTable(rows[:100], 120, 12, TableConfig[stake]{})
	settle(tb, tb.SortBy(2, true))
	press(tb, "down", "down", "down")
	focused := selectedID(t, tb)
	for i := 100; i < len(rows); i += 100 {
		settle(tb, tb.AppendRows(rows[i:i+100]))
		if got := selectedID(t, tb); got != focused {
			t.Fatalf("after the batch at %d the cursor is on %s, want %s", i, got, focused)
		}
	}
	if line := cursorLine(t, tb.View()); !strings.Contains(line, focused[:8]) {
		t.Errorf("the focused row is not the marked line: %q", line)
	}
}

// TestTableAppendRowsWhileAJobRuns runs the table's jobs on other
// goroutines while batches arrive, as the Bubble Tea runtime does: with
// -race, it shows that a job reads nothing an append writes.
func TestTableAppendRowsWhileAJobRuns(t *testing.T) {
	rows := makeStakes(3000)
	tb := newStakeTable(rows[:100], 120, 12, TableConfig[stake]{})
	results := make(chan tea.Msg, 64)
	run := func(cmd tea.Cmd) {
		if cmd != nil {
			go func() { results <- cmd() }()
		}
	}
	run(tb.SortBy(2, false))
	press(tb, "/", "0", "enter") // filters in a job of its own
	for i := 100; i < len(rows); i += 100 {
		run(tb.AppendRows(rows[i : i+100]))
	}
	for tb.pending != "" {
		switch m := (<-results).(type) {
		case tea.BatchMsg:
			for _, c := range m {
				run(c)
			}
		case jobDone[stake]:
			run(tb.Update(m))
		}
	}
	if got, want := shownIDs(tb), wholeTable(t, rows, 2, false, "0"); !slices.Equal(got, want) {
		t.Errorf("the table shows %d rows, want the %d of the rows given at once", len(got), len(want))
	}
}

// TestTableSetRowsIsNotAppendedInPlace: appending after SetRows never
// writes into the spare capacity of the caller's slice.
func TestTableSetRowsIsNotAppendedInPlace(t *testing.T) {
	rows := makeStakes(20)
	mine := make([]stake, 10, 20)
	copy(mine, rows)
	tb := newStakeTable(mine, 120, 12, TableConfig[stake]{})
	tb.AppendRows(rows[10:])
	if spare := mine[:20]; spare[10].ID != "" {
		t.Errorf("AppendRows wrote into the slice given to SetRows: %q", spare[10].ID)
	}
	if tb.Len() != 20 {
		t.Errorf("the table shows %d rows, want 20", tb.Len())
	}
}

// TestTableFormatsOnlyWhatIsDrawn: loading and scrolling 100,000 rows
// formats the cells of the rows drawn (and of the few the natural width
// samples), not of every row.
func TestTableFormatsOnlyWhatIsDrawn(t *testing.T) {
	rows := makeStakes(100_000)
	calls := 0
	cfg := TableConfig[stake]{}
	tb := newStakeTable(nil, 120, 22, cfg)
	for c := range tb.cols {
		cell := tb.cols[c].Cell
		tb.cols[c].Cell = func(s stake) string { calls++; return cell(s) }
	}
	for i := 0; i < len(rows); i += 4096 {
		settle(tb, tb.AppendRows(rows[i:min(i+4096, len(rows))]))
		tb.View()
	}
	press(tb, "pgdown", "pgdown", "G")
	tb.View()
	// 20 lines a page, 5 columns: three pages drawn, and the 200 rows
	// the natural width measures.
	if most := (3*20 + contentSample) * len(tb.cols); calls > most {
		t.Errorf("%d cells formatted for 100,000 rows, want at most %d", calls, most)
	}
}

// TestTableSetRowsFindsTheFocusInAJob: replacing many rows while a row is
// focused searches them for it in a job, off the UI goroutine, and the
// cursor lands on it.
func TestTableSetRowsFindsTheFocusInAJob(t *testing.T) {
	rows := makeStakes(findInFrame + 100)
	tb := newStakeTable(rows[:50], 120, 12, TableConfig[stake]{})
	press(tb, "down", "down")
	cmd := tb.SetRows(rows)
	if cmd == nil {
		t.Fatal("SetRows searched the new rows for the focused one on the UI goroutine")
	}
	settle(tb, cmd)
	if got := selectedID(t, tb); got != rows[2].ID || tb.Len() != len(rows) {
		t.Errorf("focused %s among %d rows, want row 2 among %d", got, tb.Len(), len(rows))
	}
}

// TestTableFilterText: a screen's own filter text is searched instead of
// the cells, case-insensitively, and a control byte in it is a separator,
// not text a query can match.
func TestTableFilterText(t *testing.T) {
	rows := makeStakes(50)
	rows[7].Status = "ODD\nSTATUS"
	tb := newStakeTable(rows, 120, 12, TableConfig[stake]{Debounce: time.Millisecond, FilterText: func(dst []byte, s stake) []byte {
		dst = append(dst, s.Wallet...)
		dst = append(dst, 0)
		return append(dst, "TAG-"+s.Status...)
	}})
	filterBy := func(q string) int {
		press(tb, "/")
		tb.input.SetValue("")
		press(tb, strings.Split(q, "")...)
		press(tb, "enter")
		return tb.Len()
	}
	if n := filterBy("tag-odd"); n != 1 || selectedID(t, tb) != rows[7].ID {
		t.Errorf("%d rows match tag-odd, want row 7 alone", n)
	}
	if n := filterBy(strings.ToUpper(rows[3].Wallet[2:14])); n != 1 || selectedID(t, tb) != rows[3].ID {
		t.Errorf("%d rows match row 3's wallet in capitals, want row 3 alone", n)
	}
	if n := filterBy("odd status"); n != 0 {
		t.Errorf("%d rows match across the newline made a separator", n)
	}
	if n := filterBy(rows[5].ID[:8]); n != 0 {
		t.Errorf("%d rows match an ID the filter text leaves out", n)
	}
}

// TestTableRowsGivenBackKeepTheirOrder: rows given back after others were
// shown a while (a server filter's answer) come back sorted without a sort
// of them all, with the rows appended meanwhile merged in, and the cursor
// where it was.
func TestTableRowsGivenBackKeepTheirOrder(t *testing.T) {
	rows := makeStakes(2000)
	compares := 0
	tb := newStakeTable(nil, 120, 12, TableConfig[stake]{})
	sortAmount := tb.cols[2].Sort
	tb.cols[2].Sort = func(a, b stake) int { compares++; return sortAmount(a, b) }
	settle(tb, tb.AppendRows(rows[:1500])) // as a stream fills a table
	settle(tb, tb.SortBy(2, true))
	press(tb, "down", "down", "down")
	focused := selectedID(t, tb)
	pool := tb.Rows()
	settle(tb, tb.SetRows(rows[1990:])) // the server's answer
	pool = pool.Append(rows[1500:1990]) // the pool goes on arriving
	compares = 0
	settle(tb, tb.SetRowSet(pool))
	if compares > 500*20 {
		t.Errorf("%d comparisons to give back 1,500 sorted rows and merge 490, as many as sorting them all", compares)
	}
	if got, want := shownIDs(tb), wholeTable(t, rows[:1990], 2, true, ""); !slices.Equal(got, want) {
		t.Errorf("the rows given back show %d rows, not the %d in order", len(got), len(want))
	}
	if got := selectedID(t, tb); got != focused {
		t.Errorf("focused %s, want %s as before", got, focused)
	}
}

// TestTableSortRef: a column that compares rows in place sorts as Sort
// does, and takes its place in the sort cycle.
func TestTableSortRef(t *testing.T) {
	rows := makeStakes(1000)
	tb := newStakeTable(rows, 120, 12, TableConfig[stake]{})
	sortAmount := tb.cols[2].Sort
	tb.cols[2].Sort, tb.cols[2].SortRef = nil, func(a, b *stake) int { return sortAmount(*a, *b) }
	press(tb, "s", "s") // Amount ↑, Amount ↓
	if got, want := shownIDs(tb), wholeTable(t, rows, 2, true, ""); !slices.Equal(got, want) || tb.sortLabel() != "sort Amount ↓" {
		t.Errorf("sorted by %q, the rows are not those Sort puts in that order", tb.sortLabel())
	}
}

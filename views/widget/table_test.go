package widget

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// settle runs cmd and feeds the table's own messages (debounce ticks,
// background results) back into it until no command is left, as the Bubble
// Tea runtime would. It returns the other messages.
func settle(tb *Table[stake], cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, m...)
		case filterTick, jobDone[stake]:
			queue = append(queue, tb.Update(m))
		case nil:
		default:
			out = append(out, m)
		}
	}
	return out
}

// press sends keys one by one and settles each.
func press(tb *Table[stake], keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		out = append(out, settle(tb, tb.Update(keyMsg(k)))...)
	}
	return out
}

func selectedID(t *testing.T, tb *Table[stake]) string {
	t.Helper()
	r, ok := tb.Selected()
	if !ok {
		t.Fatal("no row selected")
	}
	return r.ID
}

// cursorLine returns the view line that carries the selection marker.
func cursorLine(t *testing.T, view string) string {
	t.Helper()
	var found []string
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, selectedMarker) {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want exactly one marked line, got %d in:\n%s", len(found), view)
	}
	return found[0]
}

func checkFits(t *testing.T, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > height {
		t.Errorf("view has %d lines, height is %d", len(lines), height)
	}
	for i, l := range lines {
		if w := displayWidth(l); w > width {
			t.Errorf("line %d is %d cells wide, width is %d: %q", i, w, width, l)
		}
	}
}

func TestTableCursorKeys(t *testing.T) {
	rows := makeStakes(100)
	tb := newStakeTable(rows, 100, 12, TableConfig[stake]{}) // 10 body lines
	steps := []struct {
		key  string
		want int
	}{
		{"j", 1}, {"down", 2}, {"k", 1}, {"up", 0}, {"up", 0},
		{"G", 99}, {"down", 99}, {"g", 0},
		{"pgdown", 10}, {"ctrl+d", 15}, {"ctrl+u", 10}, {"pgup", 0},
		{"end", 99}, {"ctrl+u", 94}, {"home", 0},
	}
	for i, s := range steps {
		press(tb, s.key)
		if got := selectedID(t, tb); got != rows[s.want].ID {
			t.Fatalf("step %d (%s): focused %s, want row %d", i, s.key, got, s.want)
		}
		view := tb.View()
		if line := cursorLine(t, view); !strings.Contains(line, rows[s.want].ID[:8]) {
			t.Fatalf("step %d (%s): marked line %q is not row %d", i, s.key, line, s.want)
		}
		checkFits(t, view, 100, 12)
	}
}

func TestTableViewShowsOnlyTheWindow(t *testing.T) {
	rows := makeStakes(1000)
	tb := newStakeTable(rows, 120, 12, TableConfig[stake]{})
	press(tb, "G")
	view := tb.View()
	if !strings.Contains(view, rows[999].ID[:8]) || strings.Contains(view, rows[0].ID[:8]) {
		t.Fatalf("after G the view should show the last row and not the first:\n%s", view)
	}
	if got := strings.Count(view, "\n") + 1; got != 12 {
		t.Errorf("view has %d lines, want 12", got)
	}
	if !strings.Contains(view, "1,000/1,000") {
		t.Errorf("footer lacks the position:\n%s", view)
	}
	// Only the visible rows were rendered.
	if n := len(tb.cache.cur) + len(tb.cache.old); n > 10 {
		t.Errorf("%d lines rendered for a 10-line window", n)
	}
}

func TestTableCacheIsBounded(t *testing.T) {
	tb := newStakeTable(makeStakes(20_000), 120, 36, TableConfig[stake]{})
	for range 20_000 / 34 {
		press(tb, "pgdown")
		tb.View()
	}
	if n := len(tb.cache.cur) + len(tb.cache.old); n > 2*lineCacheSize {
		t.Fatalf("cache holds %d lines, bound is %d", n, 2*lineCacheSize)
	}
}

func TestTableCursorRestoredByID(t *testing.T) {
	rows := makeStakes(200)
	tb := newStakeTable(rows, 120, 20, TableConfig[stake]{})
	press(tb, "pgdown", "pgdown", "j", "j") // row 38
	want := selectedID(t, tb)
	screenRow := tb.cursor - tb.offset

	t.Run("rows replaced in another order", func(t *testing.T) {
		shuffled := slices.Clone(rows)
		slices.Reverse(shuffled)
		settle(tb, tb.SetRows(shuffled))
		if got := selectedID(t, tb); got != want {
			t.Fatalf("focused %s, want %s", got, want)
		}
		if got := tb.cursor - tb.offset; got != screenRow {
			t.Errorf("focused row moved from screen line %d to %d", screenRow, got)
		}
	})
	t.Run("rows replaced while sorted", func(t *testing.T) {
		settle(tb, tb.SortBy(2, true))
		if got := selectedID(t, tb); got != want {
			t.Fatalf("after sorting focused %s, want %s", got, want)
		}
		more := append(makeStakes(200), stake{ID: "extra", Amount: "1", units: 1_000_000})
		cmd := tb.SetRows(more)
		if cmd == nil {
			t.Fatal("SetRows on a sorted table must sort in a command")
		}
		if got := selectedID(t, tb); got != want {
			t.Errorf("old rows must stay on screen until the sort is done; focused %s", got)
		}
		settle(tb, cmd)
		if got := selectedID(t, tb); got != want {
			t.Fatalf("focused %s, want %s", got, want)
		}
		if tb.Len() != 201 {
			t.Errorf("Len = %d, want 201", tb.Len())
		}
	})
	t.Run("focused row gone", func(t *testing.T) {
		cursor := tb.cursor
		settle(tb, tb.SetRows(makeStakes(300)[250:]))
		if tb.cursor != min(cursor, 49) {
			t.Errorf("cursor %d, want it kept at %d", tb.cursor, min(cursor, 49))
		}
	})
}

// At a width that drops the Created column (priority 3), s skips it: a
// sort the user cannot see is no sort to offer. The footer names the sort
// in force even when its column is dropped later.
func TestTableSortSkipsHiddenColumns(t *testing.T) {
	tb := newStakeTable(makeStakes(20), 60, 10, TableConfig[stake]{})
	if strings.Contains(tb.View(), "Created") {
		t.Fatalf("the Created column fits at 60 columns; the test needs it dropped:\n%s", tb.View())
	}
	lastLine := func() string {
		lines := strings.Split(tb.View(), "\n")
		return lines[len(lines)-1]
	}
	for _, want := range []string{"sort Amount ↑", "sort Amount ↓", ""} {
		press(tb, "s")
		got := lastLine()
		if want != "" && !strings.Contains(got, want) || want == "" && strings.Contains(got, "sort ") {
			t.Errorf("after s the footer says %q, want %q", got, want)
		}
	}
	press(tb, "s", "s") // Amount descending
	tb.SetSize(30, 10)
	if !strings.Contains(lastLine(), "sort Amount ↓") {
		t.Errorf("footer %q lost the sort at 30 columns", lastLine())
	}
}

func TestTableSortCycles(t *testing.T) {
	rows := makeStakes(50)
	tb := newStakeTable(rows, 120, 20, TableConfig[stake]{})
	press(tb, "j", "j", "j")
	focused := selectedID(t, tb)

	header := func() string { return strings.SplitN(tb.View(), "\n", 2)[0] }
	shown := func() []stake {
		out := make([]stake, tb.Len())
		for pos, i := range tb.view {
			out[pos] = *tb.rows.At(i)
		}
		return out
	}
	steps := []struct {
		arrow string
		less  func(a, b stake) bool // shown order must not break it
	}{
		{"Amount ↑", func(a, b stake) bool { return a.units <= b.units }},
		{"Amount ↓", func(a, b stake) bool { return a.units >= b.units }},
		{"Created ↑", func(a, b stake) bool { return !a.CreatedAt.After(b.CreatedAt) }},
		{"Created ↓", func(a, b stake) bool { return !a.CreatedAt.Before(b.CreatedAt) }},
		{"", func(a, b stake) bool { return a.ID < b.ID }}, // back to the given order
	}
	for _, s := range steps {
		press(tb, "s")
		h := header()
		if s.arrow != "" && !strings.Contains(h, s.arrow) {
			t.Errorf("header %q lacks %q", h, s.arrow)
		}
		if s.arrow == "" && strings.ContainsAny(h, "↑↓") {
			t.Errorf("header %q still shows a sort arrow", h)
		}
		got := shown()
		for i := 1; i < len(got); i++ {
			if !s.less(got[i-1], got[i]) {
				t.Fatalf("sort %q: rows %d and %d out of order", s.arrow, i-1, i)
			}
		}
		if id := selectedID(t, tb); id != focused {
			t.Errorf("sort %q: focus moved from %s to %s", s.arrow, focused, id)
		}
	}
}

func TestTableFilter(t *testing.T) {
	rows := makeStakes(500)
	target := rows[123]
	part := strings.ToUpper(target.Wallet[10:18]) // case does not matter

	t.Run("typing filters after the debounce", func(t *testing.T) {
		tb := newStakeTable(rows, 120, 20, TableConfig[stake]{Debounce: time.Millisecond})
		press(tb, append([]string{"/"}, strings.Split(part, "")...)...)
		if !tb.EditingFilter() {
			t.Fatal("the input should still have the keyboard")
		}
		if got := selectedID(t, tb); got != target.ID {
			t.Fatalf("focused %s, want the match %s", got, target.ID)
		}
		press(tb, "enter")
		if tb.EditingFilter() || tb.Query() != part {
			t.Fatalf("after enter: editing %v, query %q", tb.EditingFilter(), tb.Query())
		}
		if !strings.Contains(tb.View(), "filter: "+part) {
			t.Errorf("footer does not show the filter:\n%s", tb.View())
		}
		press(tb, "esc")
		if tb.Query() != "" || tb.Len() != len(rows) {
			t.Fatalf("esc left query %q and %d rows", tb.Query(), tb.Len())
		}
		if got := selectedID(t, tb); got != target.ID {
			t.Errorf("clearing the filter should keep the focused row, got %s", got)
		}
	})

	for _, newestFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("stale ticks and results are dropped, newest first %v", newestFirst), func(t *testing.T) {
			tb := newStakeTable(rows, 120, 20, TableConfig[stake]{Debounce: time.Hour})
			tb.Update(keyMsg("/"))
			tb.Update(keyMsg("a"))
			tb.Update(keyMsg("b")) // input is now "ab", tick 2 is the live one
			if cmd := tb.Update(filterTick{from: tb, seq: tb.filterSeq - 1}); cmd != nil || tb.Query() != "" {
				t.Fatal("a superseded tick must do nothing")
			}
			if cmd := tb.Update(filterTick{from: newStakeTable(rows, 120, 20, TableConfig[stake]{}), seq: tb.filterSeq}); cmd != nil {
				t.Fatal("another table's tick must do nothing")
			}
			jobAB := tb.Update(filterTick{from: tb, seq: tb.filterSeq})
			if jobAB == nil || tb.Query() != "ab" {
				t.Fatalf("the live tick must start filtering for %q", "ab")
			}
			resultAB := jobAB()
			// A newer query starts before the first result arrives.
			tb.Update(keyMsg("backspace"))
			resultA := tb.Update(filterTick{from: tb, seq: tb.filterSeq})()
			if newestFirst {
				tb.Update(resultA)
				tb.Update(resultAB)
			} else {
				tb.Update(resultAB)
				tb.Update(resultA)
			}
			want := naiveFilter(rows, "a")
			if !slices.Equal(tb.view, want) {
				t.Fatalf("view has %d rows, want the %d matching %q", len(tb.view), len(want), "a")
			}
		})
	}

	t.Run("no match", func(t *testing.T) {
		tb := newStakeTable(rows, 120, 20, TableConfig[stake]{Debounce: time.Millisecond})
		press(tb, "/", "z", "z", "z", "enter")
		if tb.Len() != 0 || !strings.Contains(tb.View(), `No match for "zzz".`) {
			t.Fatalf("want the no-match state:\n%s", tb.View())
		}
	})

	t.Run("keys go to the input while editing", func(t *testing.T) {
		tb := newStakeTable(rows, 120, 20, TableConfig[stake]{Debounce: time.Millisecond})
		press(tb, "/", "j", "G", "q")
		if tb.input.Value() != "jGq" || tb.cursor != 0 {
			t.Fatalf("input %q, cursor %d", tb.input.Value(), tb.cursor)
		}
	})
}

// naiveFilter is the obvious implementation FilterIndices must agree with.
func naiveFilter(rows []stake, q string) []int {
	var out []int
	for i, r := range rows {
		for _, c := range stakeColumns() {
			if strings.Contains(strings.ToLower(c.Cell(r)), strings.ToLower(q)) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

func TestFilterIndicesAgreesWithNaive(t *testing.T) {
	rows := makeStakes(3000)
	rows[7].Status = "Ünïcode ÄCTIVE"
	tb := newStakeTable(rows, 120, 20, TableConfig[stake]{})
	for _, q := range []string{"a", "0x1", "ACT", "äctive", "00000abc", "2026-01-01 00:0", "", "nothing-like-this", "1,2"} {
		got := tb.FilterIndices(q)
		want := naiveFilter(rows, q)
		if q == "" {
			want = identity(len(rows))
		}
		if !slices.Equal(got, want) {
			t.Errorf("FilterIndices(%q): %d rows, naive %d", q, len(got), len(want))
		}
	}
	// A match must not span two cells: "ACTIVE" is followed by the date.
	if got := tb.FilterIndices("active2026"); len(got) != 0 {
		t.Errorf("a query spanning two cells matched %d rows", len(got))
	}
}

func TestTableOnFilterTakesOver(t *testing.T) {
	rows := makeStakes(100)
	var seen []string
	tb := newStakeTable(rows, 120, 20, TableConfig[stake]{
		Debounce: time.Millisecond,
		OnFilter: func(q string) (tea.Cmd, bool) {
			seen = append(seen, q)
			if len(q) == 42 {
				return func() tea.Msg { return "ask server for " + q }, true
			}
			return nil, false
		},
	})
	addr := rows[40].Wallet
	tb.Update(keyMsg("/"))
	tb.input.SetValue(addr) // as if typed or pasted
	msgs := settle(tb, tb.Update(keyMsg("enter")))
	if len(msgs) != 1 || msgs[0] != "ask server for "+addr {
		t.Fatalf("OnFilter's command did not run: %v", msgs)
	}
	if tb.Len() != len(rows) {
		t.Errorf("a handled query must not filter locally: %d rows shown", tb.Len())
	}
	if !strings.Contains(tb.View(), "(server)") {
		t.Errorf("footer should say the server filters:\n%s", tb.View())
	}
	// The server's answer replaces the rows and is not filtered again.
	settle(tb, tb.SetRows(rows[40:41]))
	if tb.Len() != 1 {
		t.Errorf("server rows shown: %d, want 1", tb.Len())
	}
	press(tb, "esc")
	if seen[len(seen)-1] != "" {
		t.Errorf("clearing must tell OnFilter, saw %q", seen)
	}
}

func TestTableOpen(t *testing.T) {
	rows := makeStakes(10)
	var opened []string
	tb := newStakeTable(rows, 120, 20, TableConfig[stake]{
		OnOpen: func(s stake) tea.Cmd { opened = append(opened, s.ID); return nil },
	})
	press(tb, "j", "enter")
	if !slices.Equal(opened, []string{rows[1].ID}) {
		t.Fatalf("opened %v, want row 1", opened)
	}
}

func TestTableEmptyStates(t *testing.T) {
	tb := newStakeTable(nil, 80, 10, TableConfig[stake]{Empty: "No stakes in this pool."})
	if v := tb.View(); !strings.Contains(v, "No stakes in this pool.") {
		t.Errorf("empty table:\n%s", v)
	}
	tb.SetLoading(func() string { return "⣾" })
	if v := tb.View(); !strings.Contains(v, "⣾ Loading…") {
		t.Errorf("loading table:\n%s", v)
	}
	settle(tb, tb.SetRows(makeStakes(3)))
	if v := tb.View(); !strings.Contains(v, "⣾ loading") || strings.Contains(v, "Loading…") {
		t.Errorf("refreshing table should show rows and the spinner in the footer:\n%s", v)
	}
	tb.SetLoading(nil)
	if v := tb.View(); strings.Contains(v, "loading") {
		t.Errorf("loading state did not end:\n%s", v)
	}
	// Without a spinner frame the words stand alone (it read
	// "loading… Loading…").
	tb = newStakeTable(nil, 80, 10, TableConfig[stake]{})
	tb.SetLoading(func() string { return "" })
	if v := tb.View(); !strings.Contains(v, "Loading…") || strings.Contains(v, "loading…") {
		t.Errorf("loading without a spinner, said once:\n%s", v)
	}
}

func TestTableHostileCellIsInert(t *testing.T) {
	rows := makeStakes(3)
	rows[0].Wallet = "\x1b]52;c;ZXZpbA==\x07\x1b[2J\x9b31m" + rows[0].Wallet
	rows[1].Status = "line\nbreak\u202e"
	tb := newStakeTable(rows, 120, 10, TableConfig[stake]{})
	view := tb.View()
	for _, bad := range []string{"\x1b", "\x07", "\x9b", "\u202e", "\nbreak"} {
		if strings.Contains(view, bad) {
			t.Errorf("view contains %q:\n%s", bad, view)
		}
	}
	if !strings.Contains(view, "^[]52;c;") {
		t.Errorf("the escape should show as inert text:\n%s", view)
	}
}

func TestTableWidthsAdapt(t *testing.T) {
	rows := makeStakes(50)
	for _, width := range []int{120, 100, 80, 60, 30, 8, 1} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tb := newStakeTable(rows, width, 24, TableConfig[stake]{})
			press(tb, "s", "j") // a sort arrow and a styled cursor line
			checkFits(t, tb.View(), width, 24)
			tb.Update(keyMsg("/"))
			checkFits(t, tb.View(), width, 24)
		})
	}
	t.Run("columns drop by priority", func(t *testing.T) {
		header := func(width int) string {
			return strings.SplitN(newStakeTable(rows, width, 10, TableConfig[stake]{}).View(), "\n", 2)[0]
		}
		tests := []struct {
			width int
			want  string
		}{
			{120, "ID Wallet Amount Status Created"},
			{80, "ID Wallet Amount Status Created"},
			{60, "ID Wallet Amount Status"}, // Created has the highest priority number
			{50, "Wallet Amount Status"},
			{40, "Wallet Amount Status"}, // the wallet shortened in the middle
			{30, "Wallet Amount"},
			{10, "Wallet"},
		}
		for _, tt := range tests {
			if got := strings.Join(strings.Fields(header(tt.width)), " "); got != tt.want {
				t.Errorf("header at %d: %q, want %q", tt.width, got, tt.want)
			}
		}
	})
}

func TestTableSelectionVisibleWithoutColor(t *testing.T) {
	rows := makeStakes(5)
	tb := newStakeTable(rows, 80, 10, TableConfig[stake]{})
	press(tb, "j", "j")
	view := tb.View()
	if strings.Contains(view, "\x1b") {
		t.Fatalf("ASCII profile must not emit escapes:\n%q", view)
	}
	if line := cursorLine(t, view); !strings.Contains(line, rows[2].ID[:8]) {
		t.Errorf("marked line %q is not the focused row", line)
	}
}

func TestTableHelpFollowsState(t *testing.T) {
	tb := newStakeTable(makeStakes(5), 80, 10, TableConfig[stake]{Debounce: time.Millisecond})
	keysOf := func() string {
		var s []string
		for _, b := range tb.ShortHelp() {
			s = append(s, b.Help().Desc)
		}
		return strings.Join(s, ",")
	}
	if got := keysOf(); got != "filter,sort,copy" {
		t.Errorf("idle help: %s", got)
	}
	press(tb, "/")
	if got := keysOf(); got != "apply filter,cancel filter" {
		t.Errorf("editing help: %s", got)
	}
	press(tb, "x", "enter")
	if got := keysOf(); !strings.Contains(got, "clear filter") {
		t.Errorf("filtered help: %s", got)
	}
}

// A whole address typed into the filter stays whole at 80 columns (the
// field was half the width, and "0x" scrolled off).
func TestFilterFieldHoldsAnAddress(t *testing.T) {
	tb := newStakeTable(makeStakes(20), 80, 10, TableConfig[stake]{Debounce: time.Millisecond})
	addr := "0x3e3Daf419A62d6665b5B6444e071475801B87Ae2"
	press(tb, "/")
	for _, r := range addr {
		press(tb, string(r))
	}
	lines := strings.Split(tb.View(), "\n")
	if footer := lines[len(lines)-1]; !strings.Contains(footer, addr) {
		t.Errorf("footer %q does not show the whole address", footer)
	}
}

// TestTextColumnsWidenFirst: the room left after every column's minimum
// goes to free text (a name) up to the width its cells need before an
// address grows; at the natural width every cell shows whole.
func TestTextColumnsWidenFirst(t *testing.T) {
	type contract struct{ Name, Address, Created, ID string }
	rows := []contract{{"Team & Advisors Vesting", "0xce21E3bF9417BA504Ac8eEf054cBB3B732BeAd01", "2026-05-12 00:00 UTC", "14f74a96-09be-51d7-9a23-06d5c91a3733"}}
	cols := []Column[contract]{
		{Title: "Name", Cell: func(c contract) string { return c.Name }, Text: true, Flex: 1, MinWidth: 12},
		{Title: "Address", Cell: func(c contract) string { return c.Address }, MinWidth: 14, MaxWidth: 42, Flex: 3},
		{Title: "Created", Cell: func(c contract) string { return c.Created }, MinWidth: 20, Priority: 3},
		{Title: "ID", Cell: func(c contract) string { return c.ID }, MinWidth: 10, Priority: 4}, // no Flex
	}
	tb := NewTable(TableConfig[contract]{Columns: cols, ID: func(c contract) string { return c.Address }, Clipboard: Clipboard{Out: discard{}}})
	tb.SetSize(70, 5) // room for the minimums and 16 more
	tb.SetRows(rows)
	view := tb.View()
	if !strings.Contains(view, "Team & Advisors Vesting") || !strings.Contains(view, "2026-05-12 00:00 UTC") {
		t.Errorf("at 70 columns the name or the date is cut while the address grows:\n%s", view)
	}
	tb.SetSize(tb.NaturalWidth(), 5)
	if view := tb.View(); !strings.Contains(view, rows[0].Address) || !strings.Contains(view, rows[0].Name) || !strings.Contains(view, rows[0].ID) {
		t.Errorf("at the natural width (%d) a cell is cut:\n%s", tb.NaturalWidth(), view)
	}
}

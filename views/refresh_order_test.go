package views_test

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// score is a row whose number a refresh changes.
type score struct {
	name string
	n    int
}

// TestRefreshNeverSortsUnderTheUser: under a sort, a refresh shows the
// new numbers in the order on show (a row gone dropped, a new row after
// the row the sort puts before it), the cursor on its row and on the same
// line of the screen; r, a new sort and a new filter sort anew. Before,
// a refresh sorted the new numbers, and the rows around the cursor
// jumped.
func TestRefreshNeverSortsUnderTheUser(t *testing.T) {
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	var rows []score
	for i := range 30 {
		rows = append(rows, score{fmt.Sprintf("row%02d", i), i * 10})
	}
	l := views.NewList(ctx, "Scores", widget.TableConfig[score]{
		Columns: []widget.Column[score]{
			{Title: "Name", Cell: func(s score) string { return s.name }},
			{Title: "N", Cell: func(s score) string { return fmt.Sprint(s.n) }, Sort: func(a, b score) int { return cmp.Compare(a.n, b.n) }},
		},
		ID: func(s score) string { return s.name },
	}, func(s score) []widget.Field { return []widget.Field{{Label: "N", Value: fmt.Sprint(s.n)}} })
	l.Fetch = func(context.Context) ([]score, error) { return slices.Clone(rows), nil }
	l.SetSize(60, 12)
	run(t, l, l.Init())
	run(t, l, l.Table.SortBy(1, true)) // N, highest first: row29 … row00
	for range 15 {
		l.Update(viewstest.Key("down"))
	}
	focus, _ := l.Table.Selected()
	line := cursorRow(t, l.View())
	before := shownScores(l)

	// The numbers turn around (a sort would reverse the rows), row03 is
	// gone, row30 is new with 145, between row15 and row14 by the sort.
	for i := range rows {
		rows[i].n = 1000 - rows[i].n
	}
	rows = slices.DeleteFunc(rows, func(s score) bool { return s.name == "row03" })
	rows = append(rows, score{"row30", 1000 - 145})
	run(t, l, l.Update(views.RefreshMsg{}))

	want := slices.DeleteFunc(slices.Clone(before), func(n string) bool { return n == "row03" })
	// The sort puts row30 (855) after row14 (860).
	want = slices.Insert(want, slices.Index(want, "row14")+1, "row30")
	if got := shownScores(l); !slices.Equal(got, want) {
		t.Fatalf("a refresh sorted under the user:\n got %v\nwant %v", got, want)
	}
	if row, _ := l.Table.Selected(); row.name != focus.name {
		t.Fatalf("the cursor moved from %s to %s", focus.name, row.name)
	}
	if got := cursorRow(t, l.View()); got != line {
		t.Fatalf("the cursor's row moved from line %d to line %d of the screen", line, got)
	}
	if row, _ := l.Table.Selected(); row.n != 1000-focus.n {
		t.Fatalf("the focused row shows %d, not its new number %d", row.n, 1000-focus.n)
	}

	sorted := func() []string {
		s := slices.Clone(rows)
		slices.SortStableFunc(s, func(a, b score) int { return cmp.Compare(b.n, a.n) })
		var names []string
		for _, r := range s {
			names = append(names, r.name)
		}
		return names
	}

	// A second refresh keeps the order too.
	run(t, l, l.Update(views.RefreshMsg{}))
	if got := shownScores(l); !slices.Equal(got, want) {
		t.Fatalf("a second refresh sorted under the user:\n got %v\nwant %v", got, want)
	}

	// r: the user asks, the rows are sorted anew.
	run(t, l, l.Update(viewstest.Key("r")))
	if got := shownScores(l); !slices.Equal(got, sorted()) {
		t.Fatalf("r did not sort anew:\n got %v\nwant %v", got, sorted())
	}

	// A new sort (the same key given again) and a new filter sort anew.
	for _, fresh := range []func() tea.Cmd{
		func() tea.Cmd { return l.Table.SortBy(1, true) },
		func() tea.Cmd {
			l.Update(viewstest.Key("/"))
			run(t, l, l.Update(viewstest.Key("r")))
			return l.Update(viewstest.Key("enter"))
		},
	} {
		run(t, l, l.Update(views.RefreshMsg{}))
		for i := range rows {
			rows[i].n = 1000 - rows[i].n
		}
		run(t, l, l.Update(views.RefreshMsg{}))
		if got := shownScores(l); slices.Equal(got, sorted()) {
			t.Fatal("the refresh sorted under the user")
		}
		run(t, l, fresh())
		if got := shownScores(l); !slices.Equal(got, sorted()) {
			t.Fatalf("not sorted anew:\n got %v\nwant %v", got, sorted())
		}
	}
}

// shownScores lists the names of the rows on show, in their order.
func shownScores(l *views.List[score]) []string {
	rows, shown := l.Table.Shown()
	var names []string
	for _, i := range shown {
		names = append(names, rows.At(i).name)
	}
	return names
}

// cursorRow is the line of view the cursor is on.
func cursorRow(t *testing.T, view string) int {
	t.Helper()
	for i, line := range strings.Split(view, "\n") {
		if strings.Contains(line, "▶") {
			return i
		}
	}
	t.Fatalf("no cursor in:\n%s", view)
	return -1
}

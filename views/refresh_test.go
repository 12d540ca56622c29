package views_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// TestRefreshKeepsThePlace: a refresh shows the new rows with the cursor
// on the same row, the filter and the sort kept, and a refresh that fails
// keeps the rows on show, marked stale, until one succeeds.
func TestRefreshKeepsThePlace(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: func() time.Time { return now }, Clipboard: widget.Clipboard{Out: io.Discard}}
	rows := []fruit{{"apple"}, {"apricot"}, {"banana"}, {"avocado"}, {"cherry"}}
	var fail error
	l := views.NewList(ctx, "Fruits", widget.TableConfig[fruit]{
		Columns: []widget.Column[fruit]{{Title: "Name", Cell: func(f fruit) string { return f.name },
			Sort: func(a, b fruit) int { return strings.Compare(a.name, b.name) }}},
		ID: func(f fruit) string { return f.name },
	}, func(f fruit) []widget.Field { return []widget.Field{{Label: "Name", Value: f.name}} })
	l.Fetch = func(context.Context) ([]fruit, error) { return append([]fruit(nil), rows...), fail }
	l.SetSize(80, 20)
	run(t, l, l.Init())
	if got := l.Freshness(); !got.At.Equal(now) || got.Stale != nil {
		t.Fatalf("after the first load: %+v", got)
	}

	// Filter on "a", sort by name descending, cursor on apricot.
	l.Update(viewstest.Key("/"))
	run(t, l, l.Update(viewstest.Key("a")))
	run(t, l, l.Update(viewstest.Key("enter")))
	run(t, l, l.Table.SortBy(0, true))
	if !l.Table.SelectID("apricot") {
		t.Fatalf("no apricot among %s", shownNames(l))
	}

	// New rows: one before the cursor (in the sort), one gone.
	rows = []fruit{{"apple"}, {"apricot"}, {"banana"}, {"cherry"}, {"almond"}, {"avocado2"}}
	now = now.Add(30 * time.Second)
	run(t, l, l.Update(views.RefreshMsg{}))
	if row, _ := l.Table.Selected(); row.name != "apricot" {
		t.Fatalf("the cursor moved to %q", row.name)
	}
	if l.Table.Query() != "a" {
		t.Fatalf("the filter became %q", l.Table.Query())
	}
	if got := shownNames(l); got != "banana avocado2 apricot apple almond" {
		t.Fatalf("rows after the refresh: %s", got)
	}
	if got := l.Freshness(); !got.At.Equal(now) {
		t.Fatalf("freshness %+v, want read at %v", got, now)
	}
	// The new rows are marked for a moment; the others not.
	view := l.View()
	for _, name := range []string{"almond", "avocado2"} {
		if !strings.Contains(view, "• "+name) {
			t.Errorf("%s, new, is not marked:\n%s", name, view)
		}
	}
	if strings.Contains(view, "• apple") || strings.Contains(view, "• banana") {
		t.Errorf("a row that did not change is marked:\n%s", view)
	}
	now = now.Add(5 * time.Second)
	if view := l.View(); strings.Contains(view, "•") {
		t.Errorf("the marks outlived their moment:\n%s", view)
	}

	// A failed refresh: the rows stay, marked stale.
	fail = errors.New("service down")
	rows = nil
	read := now.Add(-5 * time.Second) // the last refresh that succeeded
	run(t, l, l.Update(views.RefreshMsg{}))
	if got := l.Freshness(); got.Stale == nil || !got.At.Equal(read) {
		t.Fatalf("after a failed refresh: %+v", got)
	}
	if v := l.View(); !strings.Contains(v, "apricot") || strings.Contains(v, "Could not load") {
		t.Fatalf("a failed refresh emptied the table:\n%s", v)
	}
	if l.Mode().Busy {
		t.Fatal("a refresh counts as work the user would lose")
	}

	// And one that succeeds again clears the mark.
	fail, rows = nil, []fruit{{"apricot"}}
	run(t, l, l.Update(views.RefreshMsg{}))
	if got := l.Freshness(); got.Stale != nil {
		t.Fatalf("still stale after a refresh that succeeded: %v", got.Stale)
	}
}

// shownNames lists the rows on show, in their order.
func shownNames(l *views.List[fruit]) string {
	rows, shown := l.Table.Shown()
	var names []string
	for _, i := range shown {
		names = append(names, fmt.Sprint(rows.At(i).name))
	}
	return strings.Join(names, " ")
}

// TestAListRecoversByItself: r on rows on show keeps them, marked stale,
// when the service is down, as the automatic refresh does; a screen whose
// first load failed tries again on the lists' rhythm and shows the rows
// once the service answers. Before, r replaced the rows with "✗ Could not
// load", and that page stayed until r.
func TestAListRecoversByItself(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: func() time.Time { return now }, Clipboard: widget.Clipboard{Out: io.Discard}}
	fail := errors.New("dial tcp 127.0.0.1:8545: connection refused")
	down := true
	l := views.NewList(ctx, "Pools", widget.TableConfig[fruit]{
		Columns: []widget.Column[fruit]{{Title: "Name", Cell: func(f fruit) string { return f.name }}},
		ID:      func(f fruit) string { return f.name },
	}, func(f fruit) []widget.Field { return []widget.Field{{Label: "Name", Value: f.name}} })
	l.Fetch = func(context.Context) ([]fruit, error) {
		if down {
			return nil, fail
		}
		return []fruit{{"apple"}, {"banana"}}, nil
	}
	l.SetSize(80, 20)
	run(t, l, l.Init())
	if v := l.View(); !strings.Contains(v, "Could not load Pools") {
		t.Fatalf("a first load that failed says nothing:\n%s", v)
	}
	down = false
	now = now.Add(30 * time.Second)
	run(t, l, l.Update(views.RefreshMsg{}))
	if v := l.View(); strings.Contains(v, "Could not load") || !strings.Contains(v, "banana") || l.LoadErr() != nil {
		t.Fatalf("the service answers again, the rhythm's load shows:\n%s", v)
	}

	down = true
	now = now.Add(30 * time.Second)
	run(t, l, l.Update(viewstest.Key("r")))
	if v := l.View(); strings.Contains(v, "Could not load") || !strings.Contains(v, "banana") {
		t.Fatalf("r while the service is down emptied the table:\n%s", v)
	}
	if got := l.Freshness(); !errors.Is(got.Stale, fail) || !got.At.Equal(now.Add(-30*time.Second)) {
		t.Errorf("after r failed: %+v, want stale since the last read", got)
	}
}

// TestRefreshKeepsTheDetailScrolled: a refresh leaves the focused row's
// pane scrolled where the reader left it, with the new values. Before,
// each refresh scrolled it to the top.
func TestRefreshKeepsTheDetailScrolled(t *testing.T) {
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	version := "1"
	l := views.NewList(ctx, "Fruits", widget.TableConfig[fruit]{
		Columns: []widget.Column[fruit]{{Title: "Name", Cell: func(f fruit) string { return f.name }}},
		ID:      func(f fruit) string { return f.name },
	}, func(f fruit) []widget.Field {
		var fields []widget.Field
		for i := range 40 {
			fields = append(fields, widget.Field{Label: fmt.Sprint("Field ", i), Value: version})
		}
		return fields
	})
	l.Fetch = func(context.Context) ([]fruit, error) { return []fruit{{"apple"}, {"banana"}}, nil }
	l.SetSize(120, 20)
	run(t, l, l.Init())
	run(t, l, l.Update(viewstest.Key("J")))
	run(t, l, l.Update(viewstest.Key("J")))
	before := l.View()
	if !strings.Contains(before, "3–") {
		t.Fatalf("the pane did not scroll:\n%s", before)
	}
	version = "2"
	run(t, l, l.Update(views.RefreshMsg{}))
	after := l.View()
	if !strings.Contains(after, "3–") || !strings.Contains(after, "Field 5   2") {
		t.Errorf("after a refresh:\n%s\nbefore:\n%s", after, before)
	}
}

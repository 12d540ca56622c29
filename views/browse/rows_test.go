package browse

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/core/rows"
	"allot/views"
	"allot/viewstest"
)

// withProbe adds to *cs, until the test ends, a column whose value names
// the row's first column's: one edit, to show that it reaches every place.
func withProbe[R any](t *testing.T, cs *rows.Columns[R]) {
	was := *cs
	first := was[0].Value
	*cs = append(slices.Clip(was), rows.Column[R]{Title: "Probe", Field: "probe", Value: func(r *R, dst []byte) []byte {
		return first(r, append(dst, "probe:"...))
	}})
	t.Cleanup(func() { *cs = was })
}

// TestScreensAreTheirDescriptions: the Contracts, Pools and Stakes tables
// and details are the columns their descriptions in core/rows give
// them, titles and values, in its order; a column added to a description
// shows in both, from that one edit.
func TestScreensAreTheirDescriptions(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	withProbe(t, &rows.Contracts)
	withProbe(t, &rows.Pools)
	withProbe(t, &rows.Stakes)

	c := NewContracts(ctx).(*contracts)
	checkScreen(t, c, c.List, rows.Contracts, "MRD", nil)
	p := NewPools(ctx).(*views.List[api.Pool])
	checkScreen(t, p, p, rows.Pools, "MRD", []string{"Share"}) // the bars are the dashboard's own
	pool, _ := p.Table.Selected()
	s := NewStakes(ctx, pool).(*stakes)
	checkScreen(t, s, s.List, rows.Stakes, "MRD", nil)
}

// checkScreen checks screen's table and the details of its first row
// against description cs (unit: the token named after the amounts); own
// are the titles of columns the screen draws besides.
func checkScreen[R any](t *testing.T, screen views.Screen, l *views.List[R], cs rows.Columns[R], unit string, own []string) {
	t.Helper()
	viewstest.NewSyncDriver(t, screen, 400, 60)
	row, ok := l.Table.Selected()
	if !ok {
		t.Fatalf("%s: no rows", screen.Title())
	}
	view := ansi.Strip(screen.View())
	cols := cs.In(rows.Dashboard)
	var titles, cells []string
	for _, c := range cols {
		titles = append(titles, c.Header(rows.Dashboard, unit))
		cells = append(cells, c.Cell(&row))
	}
	if !slices.Contains(titles, "Probe") {
		t.Fatalf("%s: the probe is not among the dashboard's columns %q", screen.Title(), titles)
	}
	if !lineInOrder(view, titles...) || !lineInOrder(view, cells...) {
		t.Errorf("%s: want the titles %q and the cells %q in\n%s", screen.Title(), titles, cells, view)
	}

	for _, title := range own {
		if !lineInOrder(view, title) {
			t.Errorf("%s: no %s column in\n%s", screen.Title(), title, view)
		}
	}

	page := opened(screen.Update(viewstest.Key("d")))
	if page == nil {
		t.Fatalf("%s: d opened nothing", screen.Title())
	}
	page.SetSize(200, 80)
	details := ansi.Strip(page.View())
	var want []string
	for _, f := range views.Details(cs, unit, l.Ctx.Now(), row) {
		want = append(want, f.Label, f.Value)
	}
	if !slices.Contains(want, "Probe") || !lineInOrder(strings.ReplaceAll(details, "\n", " "), want...) {
		t.Errorf("%s: want the details %q in\n%s", screen.Title(), want, details)
	}
}

// lineInOrder says whether a line of text holds every part, in order.
func lineInOrder(text string, parts ...string) bool {
	for _, line := range strings.Split(text, "\n") {
		at, found := 0, true
		for _, p := range parts {
			i := strings.Index(line[at:], p)
			if i < 0 {
				found = false
				break
			}
			at += i + len(p)
		}
		if found {
			return true
		}
	}
	return false
}

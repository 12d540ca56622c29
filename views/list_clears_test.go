package views_test

import (
	"context"
	"testing"
	"time"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// TestListWarningLeavesAsItLoadsAgain: a list's warning on the status
// line ("Fruits: 1 row skipped") is cleared as r loads it again,
// before that load's answer; before, it stayed until something else was
// said.
func TestListWarningLeavesAsItLoadsAgain(t *testing.T) {
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now}
	l := views.NewList(ctx, "Fruits", widget.TableConfig[fruit]{
		Columns: []widget.Column[fruit]{{Title: "Name", Cell: func(f fruit) string { return f.name }}},
		ID:      func(f fruit) string { return f.name },
	}, func(f fruit) []widget.Field { return []widget.Field{{Label: "Name", Value: f.name}} })
	warn := true
	l.Fetch = func(context.Context) ([]fruit, error) {
		if warn {
			return []fruit{{"apple"}}, views.RowsWarning("1 row skipped")
		}
		return []fruit{{"apple"}}, nil
	}
	d := viewstest.NewSyncDriver(t, l, 80, 20) // it loads
	if len(d.Got) != 1 || d.Got[0].(views.StatusMsg).Text != "Fruits: 1 row skipped" {
		t.Fatalf("the first load said %#v", d.Got)
	}
	d.Got, warn = nil, false
	d.Keys("r")
	if len(d.Got) != 1 || d.Got[0] != (views.StatusMsg{}) {
		t.Fatalf("as the list loaded again, the status line got %#v, want it cleared", d.Got)
	}
}

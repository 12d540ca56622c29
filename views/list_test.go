package views_test

import (
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

type fruit struct{ name string }

// run executes cmd and what it yields, as the runtime would, until it
// yields a page to open, which it returns. Only the commands the test
// hands it run: the filter's debounce ticks and the cursor's blink are
// left out.
func run[R any](t *testing.T, l *views.List[R], cmd tea.Cmd) views.Screen {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100 {
			t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		case views.NavigateMsg:
			return m.Screen
		default:
			queue = append(queue, l.Update(m))
		}
	}
	return nil
}

// TestKeysWaitForTheFilter: enter pressed right after the filter's enter,
// before the background filter has landed, opens the first match, not
// the row the cursor was on (typed quickly, "/cherry enter enter" opened
// apple).
func TestKeysWaitForTheFilter(t *testing.T) {
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	l := views.NewList(ctx, "Fruits", widget.TableConfig[fruit]{
		Columns: []widget.Column[fruit]{{Title: "Name", Cell: func(f fruit) string { return f.name }}},
		ID:      func(f fruit) string { return f.name },
	}, func(f fruit) []widget.Field { return []widget.Field{{Label: "Name", Value: f.name}} })
	l.SetSize(80, 20)
	run(t, l, l.SetRows([]fruit{{"apple"}, {"banana"}, {"cherry"}}))

	l.Update(viewstest.Key("/"))
	for _, r := range "cherry" {
		l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	filter := l.Update(viewstest.Key("enter")) // the filter goes to work
	if open := l.Update(viewstest.Key("enter")); open != nil {
		t.Fatal("enter acted before the filter landed")
	}
	page := run(t, l, filter)
	if page == nil {
		t.Fatal("the enter pressed while the filter ran was lost")
	}
	page.SetSize(80, 20)
	if v := page.View(); !strings.Contains(v, "cherry") || strings.Contains(v, "apple") {
		t.Fatalf("enter opened another row than the first match:\n%s", v)
	}
}

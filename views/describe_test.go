package views

import (
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/app/session"
	"allot/views/widget"
)

func sandboxContext(t *testing.T) *Context {
	t.Helper()
	s, err := session.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard}, Token: s.TokenIDs[0]}
}

// opened runs cmd and returns the screen it navigates to, if any.
func opened(cmd tea.Cmd) Screen {
	if cmd == nil {
		return nil
	}
	if nav, ok := cmd().(NavigateMsg); ok {
		return nav.Screen
	}
	return nil
}

// At 80x24 the detail pane under the table is a few lines high: K and J
// scroll it, and enter on a row that opens nothing else opens every field
// on a page of its own, where ↓ and pgdn reach the end.
func TestDetailsScrollAndOpen(t *testing.T) {
	ctx := sandboxContext(t)
	c := NewContracts(ctx)
	c.SetSize(80, 14)
	settle(c, c.Init())
	view := ansi.Strip(c.View())
	if !strings.Contains(view, "J scroll") {
		t.Fatalf("the detail pane should not fit at 80x14:\n%s", view)
	}
	c.Update(keyMsg("J"))
	c.Update(keyMsg("J"))
	if after := ansi.Strip(c.View()); after == view || !strings.Contains(after, "3–") {
		t.Errorf("J did not scroll the detail pane:\n%s", after)
	}

	page := opened(c.Update(keyMsg("enter")))
	if page == nil {
		t.Fatal("enter on a contract opened nothing")
	}
	page.SetSize(80, 4)
	first := ansi.Strip(page.View())
	if !strings.Contains(first, "Name") || !strings.Contains(first, "of") {
		t.Fatalf("details page:\n%s", first)
	}
	page.Update(keyMsg("G"))
	if last := ansi.Strip(page.View()); last == first || !strings.Contains(last, "Created") {
		t.Errorf("G did not reach the last field:\n%s", last)
	}

	p := NewPools(ctx)
	p.SetSize(120, 30)
	settle(p, p.Init())
	if page := opened(p.Update(keyMsg("d"))); page == nil || page.Title() != "Details" {
		t.Errorf("d on a pool (whose enter opens its stakes) opened %v", page)
	}
}

package browse

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// opened runs cmd and returns the screen it navigates to, if any.
func opened(cmd tea.Cmd) views.Screen {
	if cmd == nil {
		return nil
	}
	if nav, ok := cmd().(views.NavigateMsg); ok {
		return nav.Screen
	}
	return nil
}

// At 80x24 the detail pane under the table is a few lines high: K and J
// scroll it, and enter on a row that opens nothing else opens every field
// on a page of its own, where ↓ and pgdn reach the end.
func TestDetailsScrollAndOpen(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	c := NewContracts(ctx)
	viewstest.NewSyncDriver(t, c, 80, 14)
	view := ansi.Strip(c.View())
	if !strings.Contains(view, "J scroll") {
		t.Fatalf("the detail pane should not fit at 80x14:\n%s", view)
	}
	c.Update(viewstest.Key("J"))
	c.Update(viewstest.Key("J"))
	if after := ansi.Strip(c.View()); after == view || !strings.Contains(after, "3–") {
		t.Errorf("J did not scroll the detail pane:\n%s", after)
	}

	page := opened(c.Update(viewstest.Key("enter")))
	if page == nil {
		t.Fatal("enter on a contract opened nothing")
	}
	page.SetSize(80, 4)
	first := ansi.Strip(page.View())
	if !strings.Contains(first, "Name") || !strings.Contains(first, "of") {
		t.Fatalf("details page:\n%s", first)
	}
	page.Update(viewstest.Key("G"))
	if last := ansi.Strip(page.View()); last == first || !strings.Contains(last, "Created") {
		t.Errorf("G did not reach the last field:\n%s", last)
	}

	p := NewPools(ctx)
	viewstest.NewSyncDriver(t, p, 120, 30)
	if page := opened(p.Update(viewstest.Key("d"))); page == nil || page.Title() != "Details" {
		t.Errorf("d on a pool (whose enter opens its stakes) opened %v", page)
	}
}

// Actions are offered where they can work: S only on an ACTIVE pool, D and
// F only on a contract that is not a staking pool's; otherwise the status
// line says why and nothing opens.
func TestActionsOnlyWhereTheyCanWork(t *testing.T) {
	if why := stakeRefusal(api.Pool{Name: "Season 7", Status: "FINISHED"}); !strings.Contains(why, "FINISHED") {
		t.Errorf("stake on a FINISHED pool: %q", why)
	}
	if why := stakeRefusal(api.Pool{Status: "ACTIVE"}); why != "" {
		t.Errorf("stake on an ACTIVE pool refused: %q", why)
	}
	ctx := viewstest.Sandbox(t)
	c := NewContracts(ctx).(*contracts)
	viewstest.NewSyncDriver(t, c, 120, 30)
	for c.Table.Len() > 0 {
		row, _ := c.Table.Selected()
		if row.Type == "STAKING" {
			break
		}
		c.Update(viewstest.Key("j"))
		if next, _ := c.Table.Selected(); next.ID == row.ID {
			t.Fatal("no STAKING contract in the sandbox")
		}
	}
	for _, k := range []string{"D", "F"} {
		msg := c.Update(viewstest.Key(k))()
		if st, ok := msg.(widget.StatusMsg); !ok || !st.Error || !strings.Contains(st.Text, "STAKING") {
			t.Errorf("%s on a STAKING contract: %#v", k, msg)
		}
	}
}

// Help lists every key a screen handles: the stakes screen's h and r.
func TestStakesHelpNamesItsKeys(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	s := NewStakes(ctx, api.Pool{ID: ctx.Session.Fixtures.BigPoolID, Name: "Whale pool"})
	want := map[string]bool{"h": false, "r": false}
	for _, group := range s.Keys().FullHelp() {
		for _, b := range group {
			if _, ok := want[b.Help().Key]; ok {
				want[b.Help().Key] = true
			}
		}
	}
	for k, found := range want {
		if !found {
			t.Errorf("the stakes help lacks %s", k)
		}
	}
}

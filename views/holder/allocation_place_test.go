package holder

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/views"
	"allot/viewstest"
)

// scrolled is the fields pane's scroll indicator: "2–9 of 60".
var scrolled = regexp.MustCompile(`\d+–\d+ of \d+`)

// TestAllocationRefreshKeepsTheScroll: at 80x24 the allocation's state
// and what can be claimed show first, and the chain's refresh leaves the
// fields pane where the reader scrolled it. Before, Claimable now was
// below the first eight lines, and "K/J scroll · 2–9 of 60" became
// "1–8 of 60" on every refresh.
func TestAllocationRefreshKeepsTheScroll(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 80, 24)
	d.Run(a.Update(LookupMsg{ID: stateID(t, ctx, sandbox.StateActive)}))
	d.Until("looked up", func() bool { return a.result != nil && !a.busy })
	// The numbers a holder acts on show without scrolling.
	for _, label := range []string{"State ", "Claimable now ", "Withdrawn "} {
		if v := ansi.Strip(a.View()); !strings.Contains(v, label) {
			t.Errorf("at 80x24 %q needs scrolling:\n%s", label, v)
		}
	}
	d.Keys("J", "J")
	before := scrolled.FindString(ansi.Strip(a.View()))
	if before == "" || before[0] == '1' {
		t.Fatalf("the pane did not scroll (%q):\n%s", before, ansi.Strip(a.View()))
	}
	d.Run(a.Update(views.RefreshMsg{Chain: true}))
	d.Until("verified again", func() bool { return !a.refreshing })
	if got := scrolled.FindString(ansi.Strip(a.View())); got != before {
		t.Errorf("after a refresh the pane shows %q, was %q", got, before)
	}
}

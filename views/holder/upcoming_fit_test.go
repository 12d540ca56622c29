package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/viewstest"
)

// TestUpcomingNothingFollowedFitsAt60: with nothing followed, :upcoming's
// words wrap within 60 columns instead of running past the screen, where
// the dashboard cut them mid-word ("Allocati…").
func TestUpcomingNothingFollowedFitsAt60(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	u := NewUpcoming(ctx)
	viewstest.NewDriver(t, u, 60, 20)
	view := ansi.Strip(u.View())
	for _, line := range strings.Split(view, "\n") {
		if ansi.StringWidth(line) > 60 {
			t.Errorf("a line wider than 60 columns: %q\n%s", line, view)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(view), " "), "Follow one with f on its Allocation screen") {
		t.Errorf("the words are not all there:\n%s", view)
	}
}

// TestUpcomingTotalsWholeAt60: at 60 columns the title says its period
// whole in fewer words, and the months' totals break between months,
// each total whole ("Jan 2027 5,661.1565 HBR" was cut "HB…").
func TestUpcomingTotalsWholeAt60(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	for _, state := range []string{sandbox.StateActive, sandbox.StateClaimedInPart} {
		if err := ctx.Journal.SetFollowed(ctx.Session.Deployment(), stateID(t, ctx, state), true); err != nil {
			t.Fatal(err)
		}
	}
	u := NewUpcoming(ctx)
	d := viewstest.NewDriver(t, u, 60, 20)
	view := func() string { return ansi.Strip(u.View()) }
	d.Until("the unlocks", func() bool { return strings.Contains(view(), "Per month") })
	lines := strings.Split(view(), "\n")
	if !strings.HasPrefix(lines[0], "Next 90 days · 2 followed · from 20") || strings.Contains(lines[0], "…") {
		t.Errorf("title: %q", lines[0])
	}
	_, months, _ := strings.Cut(view(), "Per month: ")
	months = strings.Join(strings.Fields(months), " ")
	for _, line := range lines {
		if ansi.StringWidth(line) > 60 {
			t.Errorf("a line wider than 60 columns: %q", line)
		}
	}
	if strings.Contains(months, "…") || strings.Count(months, " MRD") != strings.Count(months, " HBR") || strings.Count(months, " · ") < 3 {
		t.Errorf("months' totals not whole:\n%s", view())
	}
}

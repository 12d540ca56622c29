package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/views/viewstest"
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

package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestFollowShowsOnUpcomingAtOnce: an allocation followed with f on its
// Allocation screen is on the Upcoming screen already open in another
// tab, without r, and unfollowed there it is no longer followed on the
// Allocation screen: the follows are one fact of the dashboard.
func TestFollowShowsOnUpcomingAtOnce(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	id := f.s.Fixtures.AllocationIDs[0]
	f.runes(":upcoming").key(tea.KeyEnter).wait("You follow no allocation")
	f.runes("3").wait(id)
	f.runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule").wait(": PASS")
	f.runes("f").wait("following " + id)
	f.runes("1").wait("Per week, from Monday").wait("1 followed")
	f.runes("f").wait("no longer following " + id).wait("You follow no allocation")
	f.runes("3").wait("f follow")
	f.quit()
}

package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestUpcomingCommand: :upcoming opens the Upcoming screen, which with
// nothing followed offers the demo allocations; f follows the one picked
// and its unlocks are listed; enter opens the allocation, whose lookup,
// started by Upcoming, is answered to the page it opened.
func TestUpcomingCommand(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	drive(t, s, 120, 36,
		step{keys: ":upcoming"}, step{key: tea.KeyEnter, want: "You follow no allocation"},
		step{keys: "f", want: "Per week, from Monday"},
		step{key: tea.KeyEnter, want: "Claimable now"},
	)
}

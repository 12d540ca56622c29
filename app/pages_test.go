package app

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestPortalSignInAnsweredAtSmallSizes: the portal's sign-in question is
// drawn whole (its last detail and its buttons) at the dashboard's small
// sizes, so y answers it and signs in; cut, it would be taken unseen.
func TestPortalSignInAnsweredAtSmallSizes(t *testing.T) {
	for _, size := range [][2]int{{MinWidth, MinHeight}, {80, 24}, {100, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			f := newFlow(t)
			f.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			f.unlock()
			f.runes("6").runes("s").wait("It moves no funds.").wait("[ Yes ]")
			f.key(tea.KeyEnd).runes("y").wait("Signed in as") // y signs only a message seen to its end
			f.quit()
		})
	}
}

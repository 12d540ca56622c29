package app

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session/sessiontest"
)

// TestPinQuestionAnsweredAt60x20: at 60x20, the documented minimum, the
// pin question is drawn whole (the review behind it gives up its rows), so
// y answers it and pins (it read "… 2 more lines (make the terminal
// taller)" and y did nothing).
func TestPinQuestionAnsweredAt60x20(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	pins := h.Session.Profile.Pins
	pins.Staking = nil
	path := h.PinIn(t, pins)

	f := newFlowOn(t, h.Session)
	f.send(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").key(tea.KeyEnd).runes("y").wait("Signed in as")
	f.runes("2").wait("Season").runes("S").wait("Stake in").typ("150").key(tea.KeyEnter)
	f.wait("never signed for in this journal").wait("▶ [ No ]")
	f.runes("y").wait("Sign and send")
	f.quit()
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "staking = [") {
		t.Errorf("y at 60x20 did not pin:\n%s", data)
	}
}

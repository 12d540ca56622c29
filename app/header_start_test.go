package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestHeaderKeepsItsStartAt80: at 80 columns, unlocked and signed in,
// the embedded sandbox's header does not start with a bare "sandbox │"
// beside the SANDBOX badge, which read as a header cut at its start.
func TestHeaderKeepsItsStartAt80(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
	m := f.quit()
	header := lines(m)[0]
	if strings.HasPrefix(header, "sandbox │") || !strings.Contains(header, "SANDBOX") || !strings.Contains(header, "portal ") {
		t.Errorf("header at 80 columns: %q", header)
	}
}

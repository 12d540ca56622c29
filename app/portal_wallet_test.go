package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestPortalForgetsAnotherWalletsSubmission: unlocking another account
// ends the portal session of the first; the Portal then says "Not signed
// in" and no longer lists the first wallet's submission accounts as if
// they were the new one's.
func TestPortalForgetsAnotherWalletsSubmission(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as").wait("Primary wallet")
	mark := f.seen.Len()
	f.runes("u").wait("enter: type the passphrase").key(tea.KeyDown).key(tea.KeyEnter).wait("Passphrase").
		typ("allot-demo-1").key(tea.KeyEnter).wait("unlocked 0x")
	f.runes("6").waitFrom(mark, "Sign in to see the submission accounts")
	m := f.quit()
	if v := m.View(); strings.Contains(v, "Primary wallet") || !strings.Contains(v, "Sign in to see the submission accounts") {
		t.Errorf("the Portal still lists the previous wallet's submission:\n%s", v)
	}
}

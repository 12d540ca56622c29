package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestSignoutWithoutSignIn: :signout with no portal session says there
// was none, not "signed out".
func TestSignoutWithoutSignIn(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes(":").typ("signout").key(tea.KeyEnter).wait("not signed in to the portal: nothing to sign out of")
	f.quit()
}

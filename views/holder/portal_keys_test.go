package holder

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/session"
	"allot/views/widget"
	"allot/viewstest"
)

// TestPortalSaysWhySignOutIsOff: without a portal session, o (sign out)
// is left out of the footer, listed in the help with its reason, and
// pressed says the reason and runs nothing (the submission on show
// stays).
func TestPortalSaysWhySignOutIsOff(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	ctx.Wallet = &session.Wallet{}
	p := NewPortal(ctx).(*portal)
	for _, b := range p.Keys().ShortHelp() {
		if b.Help().Key == "o" {
			t.Errorf("the footer offers o while signed out")
		}
	}
	var listed bool
	for _, col := range p.Keys().FullHelp() {
		for _, b := range col {
			listed = listed || b.Help().Key == "o" && strings.HasSuffix(b.Help().Desc, "(not signed in to the portal)")
		}
	}
	if !listed {
		t.Errorf("the help does not say why o is off: %v", p.Keys().FullHelp())
	}
	shown := &api.SubmissionAccounts{}
	p.submission = shown
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("o")})
	if st, ok := cmd().(widget.StatusMsg); !ok || st.Text != "not signed in to the portal" {
		t.Errorf("o says %#v", cmd())
	}
	if p.submission != shown {
		t.Error("o ran its handler: the submission on show was dropped")
	}
}

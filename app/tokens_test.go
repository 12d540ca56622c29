package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/config"
)

// TestTokenNamesFromProfile: on a deployment, where only the profile can
// name a token (token_names), the header names it so; :token completes
// the names and switches by one; a token named nowhere shows its id.
func TestTokenNamesFromProfile(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	s.Fixtures = nil // as on a real deployment: nothing but the profile names a token
	first, second := s.TokenIDs[0], s.TokenIDs[1]
	s.Profile.TokenNames = map[string]config.TokenName{second: {Name: "Acme Token"}}
	f := newFlowOn(t, s)
	f.wait("token " + shortID(first))
	f.typ(":token ac").key(tea.KeyTab).wait(":token Acme Token").key(tea.KeyEnter).wait("token Acme Token")
	if m := f.quit(); m.ctx.Token != second {
		t.Errorf(":token Acme Token shows token %s, want %s", m.ctx.Token, second)
	}

	s, _ = journaled(t)
	s.Fixtures = nil
	s.Profile.TokenNames = map[string]config.TokenName{first: {Name: "Acme Token", Symbol: "ACME"}}
	f = newFlowOn(t, s)
	f.wait("token Acme Token (ACME)")
	f.typ(":token nope").key(tea.KeyEnter).wait(":token takes a token id, or the name or symbol")
	if v := f.quit().View(); !strings.Contains(v, "token Acme Token (ACME)") {
		t.Errorf("a failed :token changed the token:\n%s", v)
	}
}

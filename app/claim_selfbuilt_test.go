package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session/sessiontest"
)

// TestClaimBuiltWhenTheServiceRefusesTheSender: in the dashboard too, a
// service that will not build a claim for another sender does not stop it:
// allot builds the same withdraw, the status line says so, and the review
// (who pays, who is paid) comes up to the signing question as for the
// service's own answer.
func TestClaimBuiltWhenTheServiceRefusesTheSender(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	h.Refuse("/claim", 400, `{"statusCode":400,"isProcessed":false,"error":{"type":"ValidationError","message":"invalid request","details":[{"path":"sender","message":"must be the allocation's beneficiary"}]}}`)
	f := newFlowOn(t, h.Session)
	f.runes("u").wait("enter: type the passphrase").key(tea.KeyDown).key(tea.KeyEnter).wait("Passphrase").
		typ("allot-demo-1").key(tea.KeyEnter).wait("unlocked " + f.s.Fixtures.Wallets[1].Address)
	f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	holder := f.s.Fixtures.Wallets[0].Address
	f.runes("C").wait("the tokens go to " + holder + ", not to you")
	f.key(tea.KeyEnter).wait("Send this claim request").runes("y")
	f.wait("allot built the same withdraw").wait("Sign and send").wait(holder + ", a wallet, not")
	f.runes("n").wait("not signed: nothing was sent")
	f.quit()
}

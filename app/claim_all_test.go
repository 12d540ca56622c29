package app

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/journal"
	"allot/core/journal/journaltest"
)

// TestClaimAllOnUpcoming: on :upcoming, C claims every claimable
// allocation followed for the unlocked account: the page lists them and
// the revoked one it skips; enter asks the service for each claim, one
// review says each call and the total, one yes signs them (a fee is due
// on the sandbox's vesters: a transaction each), and each is followed
// until it is mined. Then neither has anything left to claim, and C says
// so.
func TestClaimAllOnUpcoming(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	fx := s.Fixtures
	// Wallets 0's and 1's first allocations, and wallet 0's revoked one.
	ids := []string{fx.AllocationIDs[0], fx.AllocationIDs[1], fx.LifeAllocationIDs[2]}
	s.Profile.Allocations = ids
	f := newFlowOn(t, s)
	f.runes(":upcoming").key(tea.KeyEnter).wait("3 followed")
	f.runes("C").wait("Unlock the key that pays first: u, then C")
	// The help says it too, whole: a line too wide for it hides the page's keys.
	f.runes("?").wait("claim all claimable (Unlock the key that pays first: u, then C)").key(tea.KeyEsc).wait("3 followed")
	f.unlock() // back on Upcoming once the key is unlocked
	f.runes("C").wait("Claim all claimable").wait(ids[1]).wait("Skipped " + ids[2])
	f.key(tea.KeyEnter).wait("Sign and send these 2 transactions, in this order?")
	start := f.mark
	f.readToEnd()
	screen := f.seen.String()[start:]
	for _, want := range []string{"claim 1 of 2", "claim 2 of 2", "total", "from 2 allocations"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review does not show %q", want)
		}
	}
	f.runes("y").wait("success, mined in block")
	f.settle()
	// Claimed, nothing is left: a second C says so and offers no enter.
	f.key(tea.KeyEsc).wait("3 followed")
	f.runes("C").wait("Nothing is claimable now among the followed allocations").wait("esc goes back")
	f.quit()

	sigs := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindSignature, "claim")
	if len(sigs) != 2 {
		t.Errorf("%d claims signed, want 2", len(sigs))
	}
	claim, _ := s.ClaimableOf(context.Background(), ids[:2], nil)
	if len(claim) != 0 {
		t.Errorf("still claimable after the batch: %+v", claim)
	}
}

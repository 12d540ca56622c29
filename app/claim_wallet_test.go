package app

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/journal"
	"allot/core/journal/journaltest"
)

// TestClaimAllOfAWalletOnTheAccounts: on the accounts page (u), C on a
// wallet claims every claimable allocation allot knows of it (the
// sandbox's demo ones), sent by the unlocked key (D19): with no key
// unlocked, C (and the help) says what to do first; once demo wallet 0's key is
// unlocked, C on wallet 1 lists wallet 1's allocations, whose tokens go
// to wallet 1, not to the sender; one review, one yes, each transaction
// mined. Then nothing of wallet 1's is left to claim, and C says so.
func TestClaimAllOfAWalletOnTheAccounts(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	fx := s.Fixtures
	sender, holder := fx.Wallets[0].Address, common.HexToAddress(fx.Wallets[1].Address)
	ids, err := s.HolderCandidates(s.Follows(nil))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := s.ClaimableOf(context.Background(), ids, &holder)
	if len(before) != 2 {
		t.Fatalf("demo wallet 1 has %d claimable allocations; the test wants 2", len(before))
	}

	f := newFlowOn(t, s)
	f.runes("u").wait("enter: type the passphrase").runes("j").wait("▶ " + holder.Hex())
	f.runes("C").wait("Unlock the key that pays first: enter on it")
	// The help says it too, whole: a line too wide for it hides the page's keys.
	f.runes("?").wait("claim all of this wallet (Unlock the key that pays first: enter on it)").key(tea.KeyEsc).wait("▶ " + holder.Hex())
	f.runes("k").wait("▶ " + sender).key(tea.KeyEnter).wait("Passphrase").
		typ("allot-demo-0").key(tea.KeyEnter).wait("unlocked " + sender)
	f.runes("u").wait("C: claim all that is claimable of it").runes("j").wait("▶ " + holder.Hex())
	f.runes("C").wait("Claim all claimable of " + holder.Hex()).wait(before[len(before)-1].ID)
	f.key(tea.KeyEnter).wait("Sign and send these 2 transactions, in this order?")
	start := f.mark
	f.readToEnd()
	screen := f.seen.String()[start:]
	for _, want := range []string{"claim 1 of 2", "claim 2 of 2", "total", "a wallet, not to you"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review does not show %q", want)
		}
	}
	f.runes("y").wait("success, mined in block")
	f.settle()
	f.key(tea.KeyEsc).wait("▶ " + holder.Hex())
	f.runes("C").wait("Nothing is claimable now among this wallet's allocations").wait("esc goes back")
	f.quit()

	sigs := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindSignature, "claim")
	if len(sigs) != 2 {
		t.Errorf("%d claims signed, want 2", len(sigs))
	}
	if after, _ := s.ClaimableOf(context.Background(), ids, &holder); len(after) != 0 {
		t.Errorf("still claimable after the batch: %+v", after)
	}
}

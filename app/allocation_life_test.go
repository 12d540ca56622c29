package app

import (
	"context"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api/sandbox"
	"allot/core/session"
)

// TestAllocationLife: the demo list says the state each seeded allocation
// was left in, and looking one up in each state shows what the vester
// keeps of it: a claim in part, a cancel and when, a revoke, a transfer to
// another wallet, a vester too poor to pay it all, and what can be claimed
// then.
func TestAllocationLife(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	f := newFlowWide(t, s, "Team & Advisors Vesting")
	fx := s.Fixtures
	byState := map[string]string{}
	for _, id := range slices.Concat(fx.AllocationIDs, fx.LifeAllocationIDs) {
		if _, ok := byState[fx.AllocationStates[id]]; !ok {
			byState[fx.AllocationStates[id]] = id
		}
	}
	f.runes("3").wait("(state as seeded)")
	for _, words := range []string{"claimed in part", "cancelled", "revoked", "transferred", "underfunded", "through handler"} {
		f.wait(words)
	}
	for _, tc := range []struct {
		state string
		want  []string
	}{
		{sandbox.StateClaimedInPart, []string{"State          active · claimed in part", "Claimable now  "}},
		{sandbox.StateCancelled, []string{"State          CANCELLED at ", ": vesting stopped then", "Vested         ", "as the vester counts it"}},
		{sandbox.StateRevoked, []string{"State          REVOKED: nothing of it vests", "Claimable now  0"}},
		{sandbox.StateTransferred, []string{"transferred: not the leaf's beneficiary"}},
		{sandbox.StateUnderfunded, []string{"UNDERFUNDED: less than the "}},
	} {
		id, ok := byState[tc.state]
		if !ok {
			t.Fatalf("the fixtures name no %s allocation", tc.state)
		}
		f.runes("n").typ(id).key(tea.KeyEnter).wait("allocation " + id + ": PASS")
		for _, want := range tc.want {
			f.waitFrom(f.mark, want)
		}
	}
	f.quit()
}

// claimReview unlocks the beneficiary of the demo allocation seeded in
// state, looks it up, checks what the screen says (lookup), opens its
// claim form, checks it (form), sends the claim request and returns the
// flow at the review, and the signer.
func claimReview(t *testing.T, state string, lookup, form []string) (*flow, string) {
	t.Helper()
	s, _ := journaled(t)
	var id string
	for _, a := range s.Fixtures.LifeAllocationIDs {
		if s.Fixtures.AllocationStates[a] == state {
			id = a
		}
	}
	proof, err := s.API.MerkleProof(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	signer := proof.WalletAddress // the leaf's beneficiary, a demo wallet
	wallet := slices.IndexFunc(s.Fixtures.Wallets, func(w session.FixtureWallet) bool { return strings.EqualFold(w.Address, signer) })
	if wallet < 0 {
		t.Fatalf("the %s allocation's beneficiary %s is no demo wallet", state, signer)
	}
	f := newFlowWide(t, s, "Team & Advisors Vesting")
	f.runes("u").wait("enter: type the passphrase")
	for range wallet {
		f.key(tea.KeyDown)
	}
	f.key(tea.KeyEnter).wait("Passphrase").typ(s.Fixtures.Wallets[wallet].Passphrase).key(tea.KeyEnter).wait("unlocked " + signer)
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("allocation " + id + ": PASS")
	shown := f.mark
	for _, want := range lookup {
		f.waitFrom(shown, want)
	}
	f.runes("C").wait("Claim allocation")
	shown = f.mark
	for _, want := range form {
		f.waitFrom(shown, want)
	}
	f.key(tea.KeyEnter).wait("Send this claim request")
	f.runes("y").wait("Sign and send this transaction?")
	return f, signer
}

// TestClaimOfATransferredAllocation: the claim form offers what is
// claimable and says where the tokens go; the review, signed by the leaf's
// beneficiary, names the withdrawal address the vester pays and says it is
// neither the leaf's beneficiary nor the signer.
func TestClaimOfATransferredAllocation(t *testing.T) {
	t.Parallel()
	f, signer := claimReview(t, sandbox.StateTransferred, []string{"transferred: not the leaf's beneficiary"},
		[]string{"Claimable now: ", "! you pay the claim fee and the gas; the tokens go to 0x"})
	review := f.mark
	f.waitFrom(review, "tokens go to  0x").waitFrom(review, "the withdrawal address the vester holds: NOT the leaf's beneficiary "+signer).waitFrom(review, "NOT the signer "+signer)
	f.quit()
}

// TestClaimThroughAHandler: an allocation whose vester pays only through
// a post-claim handler is claimed through it, and the review says the
// tokens go to that handler contract, not to the wallet.
func TestClaimThroughAHandler(t *testing.T) {
	t.Parallel()
	f, _ := claimReview(t, sandbox.StateThroughHandler, []string{"only through post-claim handler 0x"}, nil)
	review := f.mark
	f.waitFrom(review, "tokens go to  handler contract 0x").waitFrom(review, "not to your wallet")
	f.waitFrom(review, "withdraw(uint256,uint32,bytes,bytes32[],address,bytes)")
	f.quit()
}

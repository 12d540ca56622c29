package app

import (
	"context"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/wallet"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/safetest"
)

// TestSafeBatchProposedInDashboard: owner 0 of a 2-of-3 Safe (the real
// Safe 1.4.1) presses b on the Safe and adds acts one at a time: a claim
// of an allocation the service does not have is named and marked when
// the batch is built, and removed; then a stake of the Safe's tokens, a
// claim the Safe sends and the transfer of an allocation the Safe holds,
// through the MultiSendCallOnly typed. The review shows the four calls
// decoded, the hashes, the policy's check and that the transfer cannot be
// undone; once signed it says "1 of 2 signatures". Owner 1 signs it on
// the proposal's page, wallet 2 executes it: the service lists the Safe's
// stake, the claimed allocation has nothing claimable left and the
// vester pays the transferred one to its new address.
func TestSafeBatchProposedInDashboard(t *testing.T) {
	t.Parallel()
	h, d, safes, treasury := treasuryOf(t)
	s := h.Session
	pool, amount, _ := fundSafeStake(t, s, d, treasury)
	held, vester := heldBy(t, s, d, treasury)
	id := claimableOtherThan(t, s, treasury, held)
	to := s.Fixtures.Wallets[2].Address
	const missing = "7f1c2a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f"

	f := newFlowOn(t, s)
	f.unlockNth(0).toSafe()
	f.runes("b").wait("Acts of the Safe " + treasury.Hex()).wait("none yet: c adds a claim")
	f.runes("c").wait("Allocation id").typ(missing).key(tea.KeyEnter).wait("1. claim allocation " + missing)
	f.key(tea.KeyEnter).wait("✗ claim " + missing + ":").wait("1. ✗ claim allocation")
	f.runes("d").wait("removed: claim allocation " + missing).wait("none yet")
	f.runes("s").wait("Amount (tokens)").key(tea.KeyDown).typ(pool.MinimumStakeAmount.String()).key(tea.KeyEnter).wait("1. stake")
	f.runes("c").wait("Allocation id").typ(id).key(tea.KeyEnter).wait("2. claim allocation " + id)
	f.runes("t").wait("New address").typ(held).key(tea.KeyTab).typ(to).key(tea.KeyEnter).wait("3. transfer allocation " + held)
	f.runes("m").wait("MultiSendCallOnly").key(tea.KeyCtrlU).typ(safes.MultiSendAddr.Hex()).key(tea.KeyEnter)
	f.wait("through the MultiSendCallOnly " + safes.MultiSendAddr.Hex())
	start := f.mark
	f.key(tea.KeyEnter).wait("Review the Safe's proposal: batch of 3 acts").wait("Sign the safeTxHash")
	// Read line by line, so that every line of the review is drawn.
	f.runes("y").wait("read the review to its end first").key(tea.KeyDown).wait("lines 2–").readToEnd().runes("y")
	f.wait("1 of 2 signatures").wait("Transactions, P")

	list, err := s.ReadProposals(context.Background())
	if err != nil || len(list) != 1 || list[0].Proposal == nil {
		t.Fatalf("the proposals: %+v, %v", list, err)
	}
	prop := list[0].Proposal
	if prop.Act.Op != proposal.OpBatch || len(prop.Calls) != 4 || prop.MultiSend != safes.MultiSendAddr {
		t.Errorf("the proposal's act %+v with %d calls through %s, want a batch of an approve, a stake, a claim and a transfer through %s",
			prop.Act, len(prop.Calls), prop.MultiSend.Hex(), safes.MultiSendAddr.Hex())
	}
	screen := f.seen.String()[start:]
	for _, want := range []string{"call 1 of 4", "call 4 of 4", "! this cannot be undone", "transferBeneficiaryAddress", prop.Hashes.Domain.Hex(), prop.Hashes.Message.Hex(), prop.Hashes.SafeTx.Hex(), "Signed by", "Checked by the signing policy"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review did not show %q", want)
		}
	}

	f.coSignAndExecute(2)
	stakes, err := s.API.Stakes(context.Background(), api.StakesRequest{StakingPoolID: pool.ID, WalletAddress: treasury.Hex()})
	if err != nil || len(stakes.Items) != 1 {
		t.Fatalf("the service's stakes of the Safe: %+v, %v", stakes, err)
	}
	if got, err := api.BaseUnits(stakes.Items[0].Amount.Decimal); err != nil || got.Cmp(amount) != 0 {
		t.Errorf("the Safe's stake is %v base units (%v), want %s", got, err, amount)
	}
	v, err := s.CheckAllocation(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if c := v.Claimable(); c == nil || c.Sign() != 0 {
		t.Errorf("allocation %s: %v claimable after the batch, want 0", id, c)
	}
	st, err := wallet.ReadStanding(context.Background(), s.Chain, vester, held)
	if err != nil || st.WithdrawalAddress != common.HexToAddress(to) {
		t.Errorf("the vester's withdrawal address of %s: %+v (%v), want %s", held, st, err, to)
	}
}

// heldBy makes the Safe the holder of wallet 0's allocation that its
// beneficiary may transfer: wallet 0 sends the vester its transfer to the
// Safe, by key. It returns the allocation and its vester.
func heldBy(t *testing.T, s *session.Session, d *safetest.Deployer, treasury common.Address) (string, common.Address) {
	t.Helper()
	w0 := s.Fixtures.Wallets[0]
	id, vester := transferableOf(t, s, w0.Address)
	calls, err := s.TransferCall(context.Background(), id, common.HexToAddress(w0.Address), treasury)
	if err != nil || len(calls) != 1 {
		t.Fatalf("the transfer of %s to the Safe: %+v, %v", id, calls, err)
	}
	keyJSON, err := os.ReadFile(w0.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := keystore.DecryptKey(keyJSON, w0.Passphrase)
	if err != nil {
		t.Fatal(err)
	}
	byKey := &safetest.Deployer{Client: d.Client, Key: key.PrivateKey, Commit: d.Commit}
	byKey.Send(t, &calls[0].To, calls[0].Data)
	return id, vester
}

// claimableOtherThan is an allocation other than not whose claim the service
// builds with the Safe as its sender, as one call: a batch holds one act
// of an allocation.
func claimableOtherThan(t *testing.T, s *session.Session, sender common.Address, not string) string {
	t.Helper()
	for _, id := range s.Fixtures.AllocationIDs {
		if id == not {
			continue
		}
		res, err := (&act.Recorder{}).RequestClaim(context.Background(), s.API, id, api.ClaimRequest{Sender: sender.Hex()})
		if err != nil {
			continue
		}
		if calls, err := wallet.ClaimCalls(res); err == nil && len(calls) == 1 {
			return id
		}
	}
	t.Fatalf("no allocation but %s the service builds a claim of for %s", not, sender.Hex())
	return ""
}

// TestSafeBatchRewrittenIsRefusedInDashboard: a hostile service rewrites
// the claim it builds for the Safe into a transfer of the Safe's tokens;
// in a batch beside a sound stake, the batch is refused when it is built,
// with the call named, before any review or question; the refusal is
// journaled and no proposal is written.
func TestSafeBatchRewrittenIsRefusedInDashboard(t *testing.T) {
	t.Parallel()
	h, d, _, treasury := treasuryOf(t)
	s := h.Session
	pool, _, _ := fundSafeStake(t, s, d, treasury)
	id := claimableBy(t, s, treasury)
	claimsRewrittenToTheft(h)

	f := newFlowOn(t, s)
	f.unlockNth(0).toSafe()
	f.runes("b").wait("none yet: c adds a claim")
	f.runes("s").wait("Amount (tokens)").key(tea.KeyDown).typ(pool.MinimumStakeAmount.String()).key(tea.KeyEnter).wait("1. stake")
	f.runes("c").wait("Allocation id").typ(id).key(tea.KeyEnter).wait("2. claim allocation " + id)
	f.key(tea.KeyEnter).wait("not signed, refused by the signing policy").wait("is a transfer")
	if strings.Contains(f.seen.String()[f.mark:], "Sign the safeTxHash") {
		t.Error("a refused batch asked to be signed")
	}
	f.quit()

	if list, err := s.ReadProposals(context.Background()); err != nil || len(list) != 0 {
		t.Errorf("proposals after a refusal: %+v, %v", list, err)
	}
	if refusals := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindRefusal, "safe batch"); len(refusals) != 1 {
		t.Errorf("%d refusals journaled, want 1", len(refusals))
	}
}

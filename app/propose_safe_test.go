package app

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/core/session/sessiontest"
	"allot/wallet"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/safetest"
)

// treasuryOf deploys a 2-of-3 Safe of demo wallets 0, 1 and 2 (the real
// Safe 1.4.1 on the sandbox's chain) and lists it in the profile.
func treasuryOf(t *testing.T) (*sessiontest.Hostile, *safetest.Deployer, *safetest.Safes, common.Address) {
	t.Helper()
	safetest.Dir(t, safetest.Contracts) // skips before the sandbox starts
	h := sessiontest.NewHostile(t, t.TempDir())
	fx := h.Session.Fixtures
	d := h.SafeDeployer(t)
	safes := safetest.DeploySafes(t, d)
	owners := []common.Address{common.HexToAddress(fx.Wallets[0].Address), common.HexToAddress(fx.Wallets[1].Address), common.HexToAddress(fx.Wallets[2].Address)}
	treasury := safes.Create(t, d, safes.Singleton, owners, 2, 1)
	h.Session.Profile.Safes = []string{treasury.Hex()}
	return h, d, safes, treasury
}

// unlockNth unlocks the keystore's account n (demo wallet n) on the
// accounts page.
func (f *flow) unlockNth(n int) *flow {
	f.t.Helper()
	fx := f.s.Fixtures
	f.runes("u").wait("enter: type the passphrase")
	for range n {
		f.key(tea.KeyDown)
	}
	return f.key(tea.KeyEnter).wait("Passphrase").typ(fx.Wallets[n].Passphrase).key(tea.KeyEnter).wait("unlocked " + fx.Wallets[n].Address)
}

// coSignAndExecute opens the proposal just signed from its review (enter),
// has the second owner (demo wallet 1) sign it and wallet executor send
// it, and checks both signatures and the execution were journaled.
func (f *flow) coSignAndExecute(executor int) {
	f.t.Helper()
	f.key(tea.KeyEnter).wait("s  sign as an owner: not now, already signed")
	f.unlockNth(1)
	f.runes("s").wait("Sign the safeTxHash").runes("y").wait("Signed: 2 of 2 signatures").wait("ready")
	f.unlockNth(executor)
	f.runes("x").wait("Sign and send").runes("y").wait("executed by transaction")
	f.quit()
	entries := journaltest.Entries(f.t, f.s.StateDir)
	if sigs := journaltest.Of(entries, journal.KindSignature, "safe exec"); len(sigs) != 1 {
		f.t.Errorf("%d executions journaled, want 1", len(sigs))
	}
	if sigs := journaltest.Of(entries, journal.KindSignature, act.OpSafeSign); len(sigs) != 2 {
		f.t.Errorf("%d owners' signatures journaled, want the 2 made", len(sigs))
	}
}

// toSafe opens the accounts page and selects the profile's Safe, under
// the keystore's accounts.
func (f *flow) toSafe() *flow {
	f.t.Helper()
	f.runes("u").wait("2 of 3 owners sign")
	for range len(f.s.Fixtures.Wallets) + 2 {
		f.key(tea.KeyDown)
	}
	return f.wait("s proposes a stake of this Safe")
}

// TestSafeStakeProposedInDashboard: owner 0 of a 2-of-3 Safe unlocks
// their key, selects the Safe on the accounts page and proposes its
// stake (an approve and the stake, through the MultiSendCallOnly): the
// review shows both calls decoded, the domain hash, message hash and
// safeTxHash and who signs; once signed it says "1 of 2 signatures" and
// the proposal is in the state directory, listed in the proposals. Owner
// 1 signs it there, wallet 2 executes it, and the service lists the
// Safe's stake.
func TestSafeStakeProposedInDashboard(t *testing.T) {
	t.Parallel()
	h, d, safes, treasury := treasuryOf(t)
	s, fx := h.Session, h.Session.Fixtures
	pool, amount, _ := fundSafeStake(t, s, d, treasury)

	f := newFlowOn(t, s)
	f.unlockNth(0).toSafe()
	f.runes("s").wait("MultiSendCallOnly").wait("Signing as the owner " + fx.Wallets[0].Address)
	f.key(tea.KeyDown).typ(pool.MinimumStakeAmount.String()).key(tea.KeyDown).key(tea.KeyCtrlU).typ(safes.MultiSendAddr.Hex())
	f.key(tea.KeyEnter).wait("What the owners sign").wait("Sign the safeTxHash")
	f.runes("y").wait("read the review to its end first").key(tea.KeyEnd).wait("↑/pgup scrolls back").runes("y")
	f.wait("1 of 2 signatures").wait("Transactions, P")

	list, err := s.ReadProposals(context.Background())
	if err != nil || len(list) != 1 || list[0].Proposal == nil {
		t.Fatalf("the proposals: %+v, %v", list, err)
	}
	prop := list[0].Proposal
	if prop.Act.Op != proposal.OpStake || prop.Act.Subject != pool.ID || prop.Act.Amount.Cmp(amount) != 0 || len(prop.Calls) != 2 {
		t.Errorf("the proposal's act %+v with %d calls, want a stake of %s in %s, approve and stake", prop.Act, len(prop.Calls), amount, pool.ID)
	}
	for _, want := range []string{"call 1 of 2", "call 2 of 2", prop.Hashes.Domain.Hex(), prop.Hashes.Message.Hex(), prop.Hashes.SafeTx.Hex(), "Signed by"} {
		if !bytes.Contains(f.seen.Bytes(), []byte(want)) {
			t.Errorf("the review did not show %q", want)
		}
	}

	f.coSignAndExecute(2)
	stakes, err := s.API.Stakes(context.Background(), api.StakesRequest{StakingPoolID: pool.ID, WalletAddress: treasury.Hex()})
	if err != nil || len(stakes.Items) != 1 {
		t.Errorf("the service's stakes of the Safe: %+v, %v", stakes, err)
	}
}

// claimsRewrittenToTheft has the hostile service rewrite every claim it
// builds into a transfer of a token to an attacker.
func claimsRewrittenToTheft(h *sessiontest.Hostile) {
	attacker := common.HexToAddress("0x00000000000000000000000000000000a77ac4e2")
	h.Rewrite("/claim", func(r map[string]any) {
		groups, _ := r["parameters"].([]any)
		list, _ := groups[0].(map[string]any)["instructions"].([]any)
		list[0].(map[string]any)["data"] = "0xa9059cbb" + strings.Repeat("0", 24) + attacker.Hex()[2:] + common.Bytes2Hex(common.LeftPadBytes(big.NewInt(1e18).Bytes(), 32))
	})
}

// TestSafeClaimRewrittenIsRefusedInDashboard: a hostile service rewrites
// the claim it builds for the Safe as sender into a transfer of the
// Safe's tokens; the dashboard's review, from the accounts page's c and
// from the allocation page's S alike, shows the Safe's call and the
// policy's refusal, asks nothing, and no proposal is written.
func TestSafeClaimRewrittenIsRefusedInDashboard(t *testing.T) {
	t.Parallel()
	h, _, _, treasury := treasuryOf(t)
	s := h.Session
	id := claimableBy(t, s, treasury)
	claimsRewrittenToTheft(h)

	f := newFlowOn(t, s)
	f.unlockNth(0).toSafe()
	f.runes("c").wait("Allocation id").typ(id).key(tea.KeyEnter)
	f.wait("REFUSED by the signing policy; nothing was signed").wait("the Safe's call 1 is a transfer")
	f.key(tea.KeyEsc).wait("Allocation id")
	// From the allocation's page, S: the Safe is chosen among those the
	// unlocked key owns.
	f.key(tea.KeyEsc).wait("Accounts: unlock a key of the keystore, or act as a Safe").key(tea.KeyEsc).settle()
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("S").wait("Claim, sent by a Safe of the profile").wait(treasury.Hex()).key(tea.KeyEnter)
	f.wait("REFUSED by the signing policy; nothing was signed").wait("the Safe's call 1 is a transfer")
	f.quit()

	if list, err := s.ReadProposals(context.Background()); err != nil || len(list) != 0 {
		t.Errorf("proposals after a refusal: %+v, %v", list, err)
	}
	if refusals := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindRefusal, "safe claim"); len(refusals) != 2 {
		t.Errorf("%d refusals journaled, want 2", len(refusals))
	}
}

// claimableBy is an allocation whose claim the service builds with the
// Safe as its sender, as one call.
func claimableBy(t *testing.T, s *session.Session, sender common.Address) string {
	t.Helper()
	for _, id := range s.Fixtures.AllocationIDs {
		res, err := (&act.Recorder{}).RequestClaim(context.Background(), s.API, id, api.ClaimRequest{Sender: sender.Hex()})
		if err != nil {
			continue
		}
		if calls, err := wallet.ClaimCalls(res); err == nil && len(calls) == 1 {
			return id
		}
	}
	t.Fatalf("no allocation the service builds a claim of for %s", sender.Hex())
	return ""
}

package app

import (
	"context"
	"math/big"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/api/sandbox/chain"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session/sessiontest"
	"allot/wallet"
)

// TestHostileNodeAndDustRefusedInDashboard: the claim review refuses what
// a node that prices the claim out of proportion, or gives it 12M gas,
// would have it sign, and a claim of all that a service made 1 wei.
func TestHostileNodeAndDustRefusedInDashboard(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	id := h.Session.Fixtures.AllocationIDs[0]
	proof, err := h.Session.API.MerkleProof(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := wallet.ProofFromAPI(proof)
	if err != nil {
		t.Fatal(err)
	}
	dust, err := chain.PackWithdraw(big.NewInt(1), p.RootIndex, p.DecodableArgs, p.Siblings)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		lies    map[string]any
		rewrite func(map[string]any)
		reason  string
	}{
		{name: "a tip of 8,000 gwei", lies: map[string]any{"eth_maxPriorityFeePerGas": (*hexutil.Big)(new(big.Int).Mul(big.NewInt(8000), big.NewInt(1e9)))},
			reason: "priority fee of 8000 gwei, out of proportion"},
		{name: "12M gas", lies: map[string]any{"eth_estimateGas": hexutil.Uint64(12_000_000)},
			reason: "more than the 1000000 a withdraw may use"},
		{name: "all made 1 wei", rewrite: func(r map[string]any) { claimInstruction(r)["data"] = hexutil.Encode(dust) },
			reason: "you asked for all that is claimable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for method, result := range tc.lies {
				h.NodeLies(t, method, result)
			}
			h.Rewrite("/claim", tc.rewrite)
			defer func() {
				for method := range tc.lies {
					h.NodeLies(t, method, nil)
				}
			}()
			claimRefusedInDashboard(t, h, id, tc.reason)
		})
	}
}

// TestStakeBeyondTheWalletRefusedInDashboard: on the embedded sandbox,
// whose node cannot simulate a batch, a stake of 300,000 tokens from a
// wallet holding 250,000 is refused before anything is signed, in words:
// no approve is mined, no allowance is left. A stake the wallet can pay
// is reviewed with its gas said to be a fallback, and its worst case.
func TestStakeBeyondTheWalletRefusedInDashboard(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	ctx := context.Background()
	owner := common.HexToAddress(f.s.Fixtures.Wallets[0].Address)
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
	f.runes("2").wait("Season").runes("S").wait("Stake in")
	f.typ("300000").key(tea.KeyEnter).wait("REFUSED by the signing policy; nothing can be signed")
	f.wait("✗ not signed: the signing policy refused it, for the reasons above")
	if !strings.Contains(f.seen.String(), "transaction 2 stakes 300,000.00 tokens; the account "+owner.Hex()+" holds 250,000.00") {
		t.Errorf("the refusal does not say what the wallet holds:\n%s", f.seen.String())
	}
	var pool string
	for _, e := range journaltest.Of(journaltest.Entries(t, f.s.StateDir), journal.KindRefusal, "stake") {
		pool = e.Ref
	}
	if pool == "" {
		t.Fatal("no refusal journaled")
	}
	for _, e := range journaltest.Entries(t, f.s.StateDir) {
		if e.Kind == journal.KindTransaction || e.Kind == journal.KindSignature && e.Op != "signin" {
			t.Errorf("journal: %s %s %s: nothing should have been signed", e.Kind, e.Op, e.Ref)
		}
	}
	if n, err := f.s.Chain.PendingNonceAt(ctx, owner); err != nil || n != 0 {
		t.Errorf("the account's nonce is %d (%v): a transaction reached the chain", n, err)
	}
	pools, err := f.s.API.AllPools(ctx, f.s.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	contracts, err := f.s.API.Contracts(ctx, f.s.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pools.Items {
		for _, c := range contracts.Items {
			if p.ID == pool && c.ID == p.ContractID {
				staking := common.HexToAddress(c.Address)
				token, err := wallet.StakingToken(ctx, f.s.Chain, staking)
				if err != nil {
					t.Fatal(err)
				}
				if allowance, err := wallet.Allowance(ctx, f.s.Chain, token, owner, staking); err != nil || allowance.Sign() != 0 {
					t.Errorf("the pool may move %s of the wallet's tokens (%v), want 0", allowance, err)
				}
			}
		}
	}

	f.key(tea.KeyEsc).runes("2").wait("Season").runes("S").wait("Stake in")
	f.typ("150").key(tea.KeyEnter).wait("Sign and send these 2 transactions")
	start := f.mark
	for range 40 { // read the whole review
		f.key(tea.KeyDown)
	}
	f.waitFrom(start, "↑/pgup scrolls back")
	f.quit()
	screen := f.seen.String()
	for _, want := range []string{"1000000 (a fallback, not an estimate", "worst case", "ether in all."} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review did not show %q", want)
		}
	}
}

// TestSigninRefusedForAnotherHostInDashboard: the Portal's sign-in of a
// profile whose signin_domain is not its portal_url's host is refused,
// naming both; nothing is signed.
func TestSigninRefusedForAnotherHostInDashboard(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	s.Profile.SigninDomain = "evil.example"
	f := newFlowOn(t, s)
	f.unlock()
	f.runes("6").runes("s").wait(`the sign-in domain "evil.example" is not the host of`)
	if strings.Contains(f.seen.String(), "Sign this message") {
		t.Error("the dashboard offered to sign the message")
	}
	f.quit()
	if sigs := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindSignature, "signin"); len(sigs) != 0 {
		t.Errorf("%d sign-ins journaled, want none", len(sigs))
	}
}

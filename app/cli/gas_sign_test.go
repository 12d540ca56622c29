package cli

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/api/sandbox/chain"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	amountfmt "allot/internal/amount"
	"allot/wallet"
)

func gwei(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1_000_000_000)) }

// feeHistory is an eth_feeHistory answer whose every block's median tip is
// tip.
func feeHistory(tip *big.Int) map[string]any {
	var rewards [][]*hexutil.Big
	var bases []*hexutil.Big
	var ratios []float64
	for range 10 {
		rewards = append(rewards, []*hexutil.Big{(*hexutil.Big)(tip)})
		bases = append(bases, (*hexutil.Big)(big.NewInt(1_000_000_000)))
		ratios = append(ratios, 0.5)
	}
	bases = append(bases, (*hexutil.Big)(big.NewInt(1_000_000_000)))
	return map[string]any{"oldestBlock": "0x1", "reward": rewards, "baseFeePerGas": bases, "gasUsedRatio": ratios}
}

// TestHostileNodeGasIsRefused: a node that prices a claim out of all
// proportion, or gives it 12M gas, gets nothing signed: the refusal says
// why, and a node that answers honestly through the same proxy gets the
// claim signed and mined, its worst case shown.
func TestHostileNodeGasIsRefused(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	h := newHostileClaim(t)
	for _, tc := range []struct {
		name string
		lies map[string]any
		want []string
	}{
		{"a tip of 8,000 gwei", map[string]any{"eth_maxPriorityFeePerGas": (*hexutil.Big)(gwei(8000))},
			[]string{"the node suggests a priority fee of 8000 gwei, out of proportion", "more than max_gas_fee 0.05 ether"}},
		{"12M gas for a withdraw", map[string]any{"eth_estimateGas": hexutil.Uint64(12_000_000)},
			[]string{"transaction 1 (withdraw) is given 14400000 gas, more than the 1000000 a withdraw may use"}},
		{"a fee history that vouches for 8,000 gwei", map[string]any{"eth_maxPriorityFeePerGas": (*hexutil.Big)(gwei(8000)), "eth_feeHistory": feeHistory(gwei(8000))},
			[]string{"more than max_gas_fee 0.05 ether"}},
		{"an account without the ether for the fee and the gas", map[string]any{"eth_getBalance": (*hexutil.Big)(big.NewInt(1))},
			[]string{"holds 0.000000000000000001 ether; the transactions may take up to", "(0.0005 sent, "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for method, result := range tc.lies {
				h.NodeLies(t, method, result)
			}
			defer func() {
				for method := range tc.lies {
					h.NodeLies(t, method, nil)
				}
			}()
			h.Session.StateDir = t.TempDir()
			before := h.nonce(t)
			r := h.run(t, "claim", h.allocation, "--sign", "--account", h.wallet, "--send", "--yes", "--wait")
			for _, want := range tc.want {
				checkRefused(t, r, h.Session.StateDir, "claim", h.allocation, want, before, h.nonce(t))
			}
		})
	}

	h.Session.StateDir = t.TempDir()
	r := h.run(t, "claim", h.allocation, "--sign", "--account", h.wallet, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("the honest claim through the node: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Errorf("the honest claim: %+v, want one success", sent)
	}
	for _, want := range []string{"gas limit:   ", "(estimated, with a margin)", "worst case:  ", "ether: 0.0005 sent and ", "It sends 0.0005 ether and pays at most", "ether in all."} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the review lacks %q:\n%s", want, r.stderr)
		}
	}
}

// TestClaimOfAllRewrittenToDustIsRefused: the user asks for all that is
// claimable; a service that makes it 1 wei, for the whole fee, gets
// nothing signed. A service that makes it 0, the contract's "all", does,
// and a fee at the profile's max_native_fee is said to be at the cap.
func TestClaimOfAllRewrittenToDustIsRefused(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	h := newHostileClaim(t)
	withdraw := func(amount *big.Int) func(map[string]any) {
		return func(r map[string]any) {
			data, err := chain.PackWithdraw(amount, h.proof.RootIndex, h.proof.DecodableArgs, h.proof.Siblings)
			if err != nil {
				t.Fatal(err)
			}
			instruction(r)["data"] = hexutil.Encode(data)
		}
	}
	h.Rewrite("/claim", withdraw(big.NewInt(1)))
	h.Session.StateDir = t.TempDir()
	before := h.nonce(t)
	r := h.run(t, "claim", h.allocation, "--sign", "--account", h.wallet, "--send", "--yes", "--wait")
	checkRefused(t, r, h.Session.StateDir, "claim", h.allocation,
		"call 1 withdraws 0.000000000000000001 MRD; you asked for all that is claimable", before, h.nonce(t))

	// withdraw(0) is signed; its fee, exactly the profile's cap, is said
	// to be at the cap.
	h.Rewrite("/claim", withdraw(new(big.Int)))
	h.Session.StateDir = t.TempDir()
	h.Session.Profile.MaxNativeFee = "0.0005"
	r = h.run(t, "claim", h.allocation, "--sign", "--account", h.wallet, "--send", "--yes", "--wait", "-o", "json")
	if sent := decodeSent(t, r); r.code != 0 || len(sent) != 1 || sent[0].Status != "success" {
		t.Errorf("withdraw(0) for all: exit %d, %+v\n%s", r.code, sent, r.stderr)
	}
	if want := "fee at the cap:  call 1 sends 0.0005 ether, exactly max_native_fee"; !strings.Contains(r.stderr, want) {
		t.Errorf("the review lacks %q:\n%s", want, r.stderr)
	}
}

// TestStakeBeyondTheWalletRefusedOnTheSandbox: on the embedded sandbox,
// whose node cannot simulate a batch, a stake of more tokens than the
// wallet holds is refused before any transaction is signed, in words: no
// approve is mined and no allowance is left.
func TestStakeBeyondTheWalletRefusedOnTheSandbox(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	s := sandboxSession(t)
	ctx := context.Background()
	w := s.Fixtures.Wallets[0]
	owner := common.HexToAddress(w.Address)
	pool, staking := activePool(t, s)
	token, err := wallet.StakingToken(ctx, s.Chain, staking)
	if err != nil {
		t.Fatal(err)
	}
	balance, err := wallet.TokenBalance(ctx, s.Chain, token, owner)
	if err != nil {
		t.Fatal(err)
	}
	for _, amount := range []string{"300000", "1000000000000000000000000000000"} {
		t.Run(amount, func(t *testing.T) {
			s.StateDir = t.TempDir()
			before, _ := s.Chain.PendingNonceAt(ctx, owner)
			// The key is unlocked for the portal's sign-in, which the stake
			// parameters need; no transaction is signed.
			r := runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "stake", "--pool", pool.ID, "--amount", amount, "--account", w.Address, "--send", "--yes", "--wait")
			after, _ := s.Chain.PendingNonceAt(ctx, owner)
			want := "transaction 2 stakes " + amountfmt.Tokens(amount) + " tokens; the account " + owner.Hex() + " holds " + wallet.FormatTokens(balance) + " of the pool's token " + token.Hex()
			checkRefused(t, r, s.StateDir, "stake", pool.ID, want, before, after)
			if allowance, err := wallet.Allowance(ctx, s.Chain, token, owner, staking); err != nil || allowance.Sign() != 0 {
				t.Errorf("the pool may move %s of the wallet's tokens (%v), want 0", allowance, err)
			}
		})
	}

	// What the wallet holds is staked, its gas said to be a fallback.
	s.StateDir = t.TempDir()
	r := runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "stake", "--pool", pool.ID, "--amount", pool.MinimumStakeAmount.String(),
		"--account", w.Address, "--send", "--yes", "--wait", "-o", "json")
	if sent := decodeSent(t, r); r.code != 0 || len(sent) != 2 || sent[1].Status != "success" {
		t.Fatalf("the minimum stake: exit %d, %+v\n%s", r.code, sent, r.stderr)
	}
	if !strings.Contains(r.stderr, "1000000 (a fallback, not an estimate: the node cannot simulate this batch") {
		t.Errorf("the review does not say the stake's gas is a fallback:\n%s", r.stderr)
	}
	if refusals := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindRefusal, "stake"); len(refusals) != 0 {
		t.Errorf("the stake the wallet can pay was refused: %+v", refusals)
	}
}

// TestSigninRefusedForAnotherHost: a profile whose signin_domain is not
// the host of its portal_url signs no sign-in: the refusal names both,
// and nothing is signed or journaled.
func TestSigninRefusedForAnotherHost(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	s.Profile.SigninDomain = "evil.example"
	w := s.Fixtures.Wallets[0]
	r := runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "signin", "--account", w.Address)
	if r.code != 1 || !strings.Contains(r.stderr, `the sign-in domain "evil.example" is not the host of the portal URL "`+s.Profile.PortalURL+`"`) {
		t.Errorf("exit %d, want 1 and a refusal naming both:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "wants you to sign in") {
		t.Errorf("a message was prepared:\n%s", r.stderr)
	}
	if sigs := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindSignature, "signin"); len(sigs) != 0 {
		t.Errorf("%d sign-ins journaled, want none", len(sigs))
	}
}

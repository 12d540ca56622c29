package wallet

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox/chain"
)

// freeVester deploys a second vester of the fixture's token that asks no
// claim fee, holding the fixture's root and funded.
func (f *fixture) freeVester(t *testing.T) common.Address {
	t.Helper()
	var free common.Address
	err := f.chain.Transact(context.Background(), func(b *chain.Batch) {
		free = b.DeployVester(f.token, new(big.Int))
		b.AddRoot(free, f.tree.Root())
		b.Mint(f.token, f.chain.Deployer(), ether(10_000))
		b.Fund(free, ether(10_000))
	})
	if err != nil {
		t.Fatal(err)
	}
	return free
}

// batchPolicies are the policies of a batch of leaves, claimed by alice
// from vester, which is pinned.
func (f *fixture) batchPolicies(t *testing.T, vester common.Address, leaves ...int) []ClaimPolicy {
	var out []ClaimPolicy
	for _, leaf := range leaves {
		p := f.claimPolicy(t, leaf)
		p.Candidates = []common.Address{vester}
		p.Pins = f.pins(t, PinVester, vester)
		out = append(out, p)
	}
	return out
}

// TestCheckClaimBatch: a batch signs a multicall only of withdraws the
// claim policy would sign alone, each of a fee of 0, and otherwise one
// withdraw per allocation; anything else in a multicall is refused with
// its reason. A multicall approved is mined and leaves each allocation
// with nothing claimable.
func TestCheckClaimBatch(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	free := f.freeVester(t)
	// Bob's leaf unlocks its first quarter 100 s after genesis: the
	// fillers, each unlocked a quarter at genesis as alice's, are claimable.
	leaves := []int{aliceLeaf, 2, 3}
	withdraw := func(to common.Address, leaf int) Call {
		c := f.withdrawCall(t, leaf, alice, new(big.Int))
		c.To, c.Value = to, new(big.Int)
		return c
	}
	multicall := func(calls ...Call) Call {
		m, err := Multicall(calls)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	approve, _ := tokenABI.Pack("approve", attacker, maxUint256)
	feeWithdraw := func(leaf int) Call { return f.withdrawCall(t, leaf, alice, new(big.Int)) }
	withFee := func(c Call) Call { c.Value = new(big.Int).Set(claimFee); return c }
	for _, tc := range []struct {
		name    string
		vester  common.Address
		leaves  []int
		calls   func() []Call
		refused []string // empty: approved
	}{
		{"a multicall of fee-free withdraws", free, leaves, func() []Call {
			return []Call{multicall(withdraw(free, aliceLeaf), withdraw(free, 2), withdraw(free, 3))}
		}, nil},
		{"one withdraw each where a fee is due", f.vester, leaves, func() []Call {
			return []Call{feeWithdraw(aliceLeaf), feeWithdraw(2), feeWithdraw(3)}
		}, nil},
		{"a multicall where a fee is due", f.vester, leaves[:2], func() []Call {
			return []Call{multicall(withdraw(f.vester, aliceLeaf), withdraw(f.vester, 2))}
		}, []string{"its claim fee is 0.001 ether as the chain states; a multicall sends none"}},
		{"another function inside", free, leaves[:2], func() []Call {
			return []Call{multicall(withdraw(free, aliceLeaf), Call{ChainID: f.chain.ChainID(), From: alice, To: free, Data: approve})}
		}, []string{"a claim signs only the vester's withdraw"}},
		{"a multicall inside a multicall", free, leaves, func() []Call {
			return []Call{multicall(withdraw(free, aliceLeaf), multicall(withdraw(free, 2), withdraw(free, 3)))}
		}, []string{"call 1.2 is a multicall inside a multicall"}},
		{"an inner call rewritten to another allocation", free, leaves[:2], func() []Call {
			return []Call{multicall(withdraw(free, aliceLeaf), withdraw(free, 4))}
		}, []string{"allocation filler-a (call 1.2): call 1 withdraws with another leaf"}},
		{"a multicall sending ether", free, leaves[:2], func() []Call {
			return []Call{withFee(multicall(withdraw(free, aliceLeaf), withdraw(free, 2)))}
		}, []string{"a multicall is not payable and sends none"}},
		{"an allocation left out", free, leaves, func() []Call {
			return []Call{multicall(withdraw(free, aliceLeaf), withdraw(free, 2))}
		}, []string{"the calls withdraw for 2 of the 3 allocations asked"}},
		{"an allocation asked twice", free, []int{aliceLeaf, aliceLeaf}, func() []Call {
			return []Call{multicall(withdraw(free, aliceLeaf), withdraw(free, aliceLeaf))}
		}, []string{"is asked twice"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := CheckClaimBatch(ctx, f.node, f.batchPolicies(t, tc.vester, tc.leaves...), tc.calls())
			if len(tc.refused) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if last := a.Facts[len(a.Facts)-1]; last.Label != "total" || !strings.Contains(last.Value, "from 3 allocations") {
					t.Errorf("the review ends with %+v, want the total", last)
				}
				return
			}
			var r *RefusedError
			if !errors.As(err, &r) {
				t.Fatalf("approved (%v), want refused", err)
			}
			for _, want := range tc.refused {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("refusal %q does not say %q", err, want)
				}
			}
		})
	}

	claimInOneMulticall(t, f, free, leaves)
}

// claimInOneMulticall claims leaves from the fee-free vester free in one
// multicall the batch policy approved, sent by alice: it is mined, and
// leaves each allocation with nothing claimable.
func claimInOneMulticall(t *testing.T, f *fixture, free common.Address, leaves []int) {
	t.Helper()
	ctx := context.Background()
	alice := f.alice.Address()
	var calls []Call
	for _, leaf := range leaves {
		c := f.withdrawCall(t, leaf, alice, new(big.Int))
		c.To, c.Value = free, new(big.Int)
		calls = append(calls, c)
	}
	multicall, err := Multicall(calls)
	if err != nil {
		t.Fatal(err)
	}
	a, err := CheckClaimBatch(ctx, f.node, f.batchPolicies(t, free, leaves...), []Call{multicall})
	if err != nil {
		t.Fatal(err)
	}
	drafts, err := Build(ctx, f.node, a, f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	if len(drafts) != 1 || drafts[0].Summary.Method != "multicall" || len(drafts[0].Summary.Inner) != len(leaves) {
		t.Fatalf("drafts %d, the first a %q of %d calls", len(drafts), drafts[0].Summary.Method, len(drafts[0].Summary.Inner))
	}
	signed, err := drafts[0].Sign(f.alice.keystoreSigner(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := Send(ctx, f.node, signed); err != nil {
		t.Fatal(err)
	}
	if s := waitFinal(t, f, signed); s.State != StateSuccess {
		t.Fatalf("the multicall %+v", s)
	}
	head, _ := f.node.HeaderByNumber(ctx, nil)
	for _, leaf := range leaves {
		p := f.claimPolicy(t, leaf)
		s, err := ReadStanding(ctx, f.node, free, p.AllocationID)
		if err != nil {
			t.Fatal(err)
		}
		args := testAllocations(alice, f.bob.Address())[leaf]
		if left := s.Payout(args, time.Unix(int64(head.Time), 0)).Withdrawable; left.Sign() != 0 {
			t.Errorf("allocation %s has %s left to claim after the multicall", p.AllocationID, left)
		}
	}
}

// TestMulticallReviewIsBounded: a multicall's calls are decoded for the
// review, each read against the chain, up to MaxMulticall; more are said,
// not read.
func TestMulticallReviewIsBounded(t *testing.T) {
	stake, err := chain.PackStake(big.NewInt(1))
	if err != nil {
		t.Fatal(err)
	}
	inner := make([][]byte, MaxMulticall+1)
	for i := range inner {
		inner[i] = stake
	}
	data, err := vesterABI.Pack("multicall", inner)
	if err != nil {
		t.Fatal(err)
	}
	s := DecodeCall(context.Background(), Call{Data: data}, DecodeOptions{})
	if s.Method != "multicall" || len(s.Inner) != MaxMulticall || !s.Has(WarnUnchecked) {
		t.Errorf("decoded %q with %d calls, unchecked warning %v; want %d calls and the warning", s.Method, len(s.Inner), s.Has(WarnUnchecked), MaxMulticall)
	}
}

// TestCheckClaimBatchPayOnce: on a vester that asks its fee once per
// allocation, a multicall is refused while a fee is due on one of its
// withdraws, and signed once each has paid it: the chain then states 0.
func TestCheckClaimBatchPayOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	var once common.Address
	err := f.chain.Transact(ctx, func(b *chain.Batch) {
		once = b.DeployVesterFeeOnce(f.token, claimFee)
		b.AddRoot(once, f.tree.Root())
		b.Mint(f.token, f.chain.Deployer(), ether(10_000))
		b.Fund(once, ether(10_000))
	})
	if err != nil {
		t.Fatal(err)
	}
	leaves := []int{aliceLeaf, 2}
	multicall := func() []Call {
		var calls []Call
		for _, leaf := range leaves {
			c := f.withdrawCall(t, leaf, alice, new(big.Int))
			c.To, c.Value = once, new(big.Int)
			calls = append(calls, c)
		}
		m, err := Multicall(calls)
		if err != nil {
			t.Fatal(err)
		}
		return []Call{m}
	}
	if _, err := CheckClaimBatch(ctx, f.node, f.batchPolicies(t, once, leaves...), multicall()); err == nil ||
		!strings.Contains(err.Error(), "its claim fee is 0.001 ether as the chain states") {
		t.Fatalf("a multicall before the fee was paid: %v, want refused for the fee", err)
	}
	// Each allocation's first claim, of a little, pays its fee.
	for _, leaf := range leaves {
		c := f.withdrawCall(t, leaf, alice, ether(1))
		c.To = once
		if s := waitFinal(t, f, sendCalls(t, f, f.alice, f.buildOptions(f.alice), c)[0]); s.State != StateSuccess {
			t.Fatalf("first claim of leaf %d: %+v", leaf, s)
		}
	}
	if _, err := CheckClaimBatch(ctx, f.node, f.batchPolicies(t, once, leaves...), multicall()); err != nil {
		t.Errorf("a multicall once each fee was paid: %v, want it signed", err)
	}
}

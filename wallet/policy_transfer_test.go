package wallet

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// transferPolicy is bob's transfer of his transferable allocation to
// alice, the vester pinned.
func (f *fixture) transferPolicy(t testing.TB) TransferPolicy {
	return TransferPolicy{
		AllocationID: testAllocations(f.alice.Address(), f.bob.Address())[transferLeaf].Allocation.ID,
		Signer:       f.bob.Address(),
		ChainID:      f.chain.ChainID(),
		NewAddress:   f.alice.Address(),
		Proof:        f.proof(t, transferLeaf),
		Candidates:   []common.Address{f.pool, f.token, f.vester},
		Pins:         f.pins(t, PinVester, f.vester),
	}
}

// TestCheckTransfer: a transfer of beneficiary is signed only as the one
// transferBeneficiaryAddress of the allocation asked, to the address
// asked, sent by its current withdrawal address to the pinned vester with
// nothing, for a leaf that lets its holder transfer it; the review says
// where the tokens go from then on.
func TestCheckTransfer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	good := func(p TransferPolicy) Call {
		c, err := TransferCall(f.vester, p.Signer, p.ChainID, p.Proof, p.NewAddress)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	p := f.transferPolicy(t)
	a, err := CheckTransfer(ctx, f.node, p, []Call{good(p)})
	if err != nil {
		t.Fatalf("bob's transfer to alice: %v", err)
	}
	want := "the allocation's future tokens will go to " + f.alice.Address().Hex() + ", a wallet, no longer to you, " + f.bob.Address().Hex()
	if !hasFact(a.Facts, "transfer", want) {
		t.Errorf("the facts %+v do not say %q", a.Facts, want)
	}

	for name, tc := range map[string]struct {
		policy func(*TransferPolicy)
		calls  func(TransferPolicy) []Call
		want   string
	}{
		"to zero": {func(p *TransferPolicy) { p.NewAddress = common.Address{} }, nil, "the new withdrawal address is zero"},
		"to another address than asked": {nil, func(p TransferPolicy) []Call {
			p.NewAddress = attacker
			return []Call{good(p)}
		}, "transfers the allocation to " + attacker.Hex()},
		"by one who does not hold it": {func(p *TransferPolicy) { p.Signer = f.stranger.Address() }, nil, "only its current withdrawal address may transfer it"},
		"to its holder already":       {func(p *TransferPolicy) { p.NewAddress = f.bob.Address() }, nil, "go to " + f.bob.Address().Hex() + " already"},
		"a leaf that forbids it": {func(p *TransferPolicy) {
			p.AllocationID, p.Proof, p.Signer = testAllocations(f.alice.Address(), f.bob.Address())[bobLeaf].Allocation.ID, f.proof(t, bobLeaf), f.bob.Address()
		}, nil, "not transferableByBeneficiary"},
		"sending ether": {nil, func(p TransferPolicy) []Call {
			c := good(p)
			c.Value = big.NewInt(1)
			return []Call{c}
		}, "a transfer of beneficiary takes none"},
		"to another contract": {nil, func(p TransferPolicy) []Call {
			c := good(p)
			c.To = f.pool
			return []Call{c}
		}, "not to the vester"},
		"with another call": {nil, func(p TransferPolicy) []Call {
			return []Call{good(p), f.withdrawCall(t, transferLeaf, p.Signer, new(big.Int))}
		}, "exactly one transferBeneficiaryAddress"},
		"a withdraw instead": {nil, func(p TransferPolicy) []Call {
			return []Call{f.withdrawCall(t, transferLeaf, p.Signer, new(big.Int))}
		}, "signs only the vester's transferBeneficiaryAddress"},
		"the vester unpinned": {func(p *TransferPolicy) { p.Pins = Pins{} }, nil, "allot pin vester"},
	} {
		p := f.transferPolicy(t)
		if tc.policy != nil {
			tc.policy(&p)
		}
		calls := []Call{good(p)}
		if tc.calls != nil {
			calls = tc.calls(p)
		}
		_, err := CheckTransfer(ctx, f.node, p, calls)
		var r *RefusedError
		if !errors.As(err, &r) || !strings.Contains(r.Error(), tc.want) {
			t.Errorf("%s: %v, want a refusal saying %q", name, err, tc.want)
		}
	}
}

// TestSplitAndCheckBatch: a batch's calls are cut into the acts they make
// (an approve with its stake, a withdraw, a transfer), a call that starts
// no act refuses the batch, each act's refusal is named in the batch's,
// and two acts of one allocation are refused.
func TestSplitAndCheckBatch(t *testing.T) {
	f := newFixture(t)
	bob := f.bob.Address()
	p := f.transferPolicy(t)
	transfer, err := TransferCall(f.vester, bob, p.ChainID, p.Proof, p.NewAddress)
	if err != nil {
		t.Fatal(err)
	}
	approve := Call{From: bob, To: f.token, Data: must(tokenABI.Pack("approve", f.pool, ether(1))), Value: new(big.Int)}
	stake := Call{From: bob, To: f.pool, Data: must(stakingABI.Pack("stake", ether(1))), Value: new(big.Int)}
	withdraw := f.withdrawCall(t, bobLeaf, bob, new(big.Int))
	acts, err := SplitSafeCalls([]Call{withdraw, approve, stake, transfer})
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, a := range acts {
		ops = append(ops, a.Op+":"+a.Allocation)
	}
	if got := strings.Join(ops, " "); got != "claim:"+testAllocations(f.alice.Address(), bob)[bobLeaf].Allocation.ID+" stake: transfer:"+p.AllocationID || len(acts[1].Calls) != 2 {
		t.Errorf("split into %s", got)
	}
	sweep := Call{From: bob, To: f.token, Data: must(tokenABI.Pack("transfer", attacker, ether(1))), Value: new(big.Int)}
	for name, calls := range map[string][]Call{
		"an ERC-20 transfer":           {withdraw, sweep},
		"an approve before a withdraw": {approve, withdraw},
		"nothing":                      nil,
	} {
		if _, err := SplitSafeCalls(calls); !errors.Is(err, ErrUnknownAct) {
			t.Errorf("%s: %v, want ErrUnknownAct", name, err)
		}
	}

	pass := func(a ActCalls) (*Approval, error) {
		return &Approval{Facts: []Line{{"ok", a.Op}}, calls: a.Calls}, nil
	}
	a, err := CheckBatch(acts, pass)
	if err != nil || len(a.Calls()) != 4 || !strings.Contains(a.Facts[len(a.Facts)-1].Value, "3 acts in one Safe transaction") {
		t.Errorf("a batch whose acts pass: %v %+v", err, a)
	}
	refuse := func(a ActCalls) (*Approval, error) {
		if a.Op == "stake" {
			return nil, &RefusedError{Reasons: []string{"the pool is not pinned"}}
		}
		return pass(a)
	}
	if _, err := CheckBatch(acts, refuse); err == nil || !strings.Contains(err.Error(), "act 2 (a stake of 1.00 tokens in "+f.pool.Hex()+"): the pool is not pinned") {
		t.Errorf("a batch with a refused act: %v", err)
	}
	twice := append(acts, ActCalls{SafeAct: SafeAct{Op: "claim", Allocation: acts[0].Allocation}, Calls: []Call{withdraw}})
	if _, err := CheckBatch(twice, pass); err == nil || !strings.Contains(err.Error(), "same allocation or pool as act 1") {
		t.Errorf("two claims of one allocation: %v", err)
	}
}

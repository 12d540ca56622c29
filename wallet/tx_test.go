package wallet

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"allot/api/sandbox/chain"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// sendCalls builds, signs and sends the calls from signer, and returns the
// signed transactions in order.
func sendCalls(t *testing.T, f *fixture, signer Signer, opts BuildOptions, calls ...Call) []*types.Transaction {
	t.Helper()
	ctx := context.Background()
	drafts, err := Build(ctx, f.node, approved(calls), opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []*types.Transaction
	for _, d := range drafts {
		signed, err := d.Sign(signer)
		if err != nil {
			t.Fatal(err)
		}
		if err := Send(ctx, f.node, signed); err != nil {
			t.Fatal(err)
		}
		out = append(out, signed)
	}
	return out
}

// waitFinal tracks tx to one confirmation, sealing blocks until it is
// mined: the pool takes sent transactions in the background, so one block
// may come too early for the last of them. No block is sealed after the
// one that holds it, so the tracker sees one confirmation, however late
// its look comes.
func waitFinal(t *testing.T, f *fixture, tx *types.Transaction) Status {
	t.Helper()
	ctx := context.Background()
	tr := Track(ctx, f.node, tx, TrackOptions{Poll: 10 * time.Millisecond, Timeout: 10 * time.Second})
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tr.Done():
			s, err := tr.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return s
		case <-tick.C:
			if _, err := f.node.TransactionReceipt(ctx, tx.Hash()); err != nil {
				f.chain.Commit()
			}
		}
	}
}

func (f *fixture) buildOptions(from Signer) BuildOptions {
	return BuildOptions{ChainID: f.chain.ChainID(), From: from.Address(), Known: f.known()}
}

func TestClaimEndToEnd(t *testing.T) {
	f := newFixture(t)
	alice := f.alice.Address()
	before := f.balance(t, alice)
	signer := f.alice.keystoreSigner(t)
	txs := sendCalls(t, f, signer, f.buildOptions(f.alice), f.withdrawCall(t, aliceLeaf, alice, ether(100)))
	s := waitFinal(t, f, txs[0])
	if s.State != StateSuccess || s.Block == 0 || s.GasUsed == 0 || s.Confirmations != 1 || s.RevertReason != "" {
		t.Errorf("status %+v", s)
	}
	if got := new(big.Int).Sub(f.balance(t, alice), before); got.Cmp(ether(100)) != 0 {
		t.Errorf("alice received %s, want %s", got, ether(100))
	}
}

func TestBuildDetails(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	calls := []Call{f.withdrawCall(t, aliceLeaf, alice, ether(1)), f.withdrawCall(t, aliceLeaf, alice, ether(2))}
	drafts, err := Build(ctx, f.node, approved(calls), f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	nonce, _ := f.node.PendingNonceAt(ctx, alice)
	head, _ := f.node.HeaderByNumber(ctx, nil)
	tip, _ := f.node.SuggestGasTipCap(ctx)
	wantCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	for i, d := range drafts {
		tx := d.Tx
		estimate, err := estimateGas(ctx, f.node, calls[i])
		if err != nil {
			t.Fatal(err)
		}
		if tx.Type() != types.DynamicFeeTxType || tx.Nonce() != nonce+uint64(i) || tx.ChainId().Uint64() != f.chain.ChainID() ||
			tx.GasTipCap().Cmp(tip) != 0 || tx.GasFeeCap().Cmp(wantCap) != 0 || tx.Gas() != estimate || !d.GasEstimated ||
			*tx.To() != f.vester || tx.Value().Cmp(claimFee) != 0 {
			t.Errorf("draft %d: type %d nonce %d chain %s tip %s cap %s (want %s) gas %d (want %d) to %s value %s",
				i, tx.Type(), tx.Nonce(), tx.ChainId(), tx.GasTipCap(), tx.GasFeeCap(), wantCap, tx.Gas(), estimate, tx.To(), tx.Value())
		}
	}
	raw, _ := f.node.EstimateGas(ctx, ethereum.CallMsg{From: alice, To: &f.vester, Value: claimFee, Data: calls[0].Data})
	if drafts[0].Tx.Gas() != raw*(100+GasMarginPercent)/100 {
		t.Errorf("gas %d, want %d plus %d%%", drafts[0].Tx.Gas(), raw, GasMarginPercent)
	}
}

func TestWrongChainRefusedBeforeSigning(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	call := f.withdrawCall(t, aliceLeaf, alice, ether(1))

	opts := f.buildOptions(f.alice)
	opts.ChainID = 1 // the profile says mainnet, the node is the test chain
	if _, err := Build(ctx, f.node, approved([]Call{call}), opts); !errors.Is(err, ErrWrongChain) {
		t.Errorf("node on another chain: %v, want ErrWrongChain", err)
	}
	other := call
	other.ChainID = 5
	if _, err := Build(ctx, f.node, approved([]Call{other}), f.buildOptions(f.alice)); !errors.Is(err, ErrWrongChain) {
		t.Errorf("instruction for another chain: %v, want ErrWrongChain", err)
	}
	if _, err := Build(ctx, f.node, approved([]Call{call}), f.buildOptions(f.bob)); !errors.Is(err, ErrWrongSender) {
		t.Errorf("instruction for another sender: %v, want ErrWrongSender", err)
	}
	drafts, err := Build(ctx, f.node, approved([]Call{call}), f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drafts[0].Sign(f.bob); !errors.Is(err, ErrWrongSender) {
		t.Errorf("signed by another account: %v, want ErrWrongSender", err)
	}
}

func TestRevertBeforeSending(t *testing.T) {
	f := newFixture(t)
	call := f.withdrawCall(t, aliceLeaf, f.alice.Address(), ether(1))
	call.Value = new(big.Int)
	_, err := Build(context.Background(), f.node, approved([]Call{call}), f.buildOptions(f.alice))
	var revert *RevertError
	if !errors.As(err, &revert) || revert.Reason != "InvalidFeeFundsSent(): the ether sent is not exactly the claim fee" {
		t.Errorf("Build: %v, want the decoded InvalidFeeFundsSent revert", err)
	}
}

func TestRevertedTransaction(t *testing.T) {
	f := newFixture(t)
	alice := f.alice.Address()

	t.Run("fee", func(t *testing.T) {
		call := f.withdrawCall(t, aliceLeaf, alice, ether(1))
		call.Value = new(big.Int)
		opts := f.buildOptions(f.alice)
		opts.GasLimit = 500_000 // no estimate: send what would revert
		txs := sendCalls(t, f, f.alice, opts, call)
		f.chain.Commit()
		s := waitFinal(t, f, txs[0])
		if s.State != StateReverted || s.RevertReason != "InvalidFeeFundsSent(): the ether sent is not exactly the claim fee" {
			t.Errorf("status %+v", s)
		}
	})
	t.Run("state changed by the transaction before", func(t *testing.T) {
		// Both claims are estimated against the same state; the first takes
		// everything unlocked, so the second reverts when mined.
		all := ether(250)
		txs := sendCalls(t, f, f.alice, f.buildOptions(f.alice),
			f.withdrawCall(t, aliceLeaf, alice, all), f.withdrawCall(t, aliceLeaf, alice, all))
		f.chain.Commit()
		if s := waitFinal(t, f, txs[0]); s.State != StateSuccess {
			t.Fatalf("first claim %+v", s)
		}
		s := waitFinal(t, f, txs[1])
		if s.State != StateReverted || !strings.HasPrefix(s.RevertReason, "InsufficientFunds(): more than is withdrawable") {
			t.Errorf("second claim %+v", s)
		}
	})
}

func TestStakeWithApprove(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	stakeCall := func(amount string) Call {
		units, err := ParseUnits(amount)
		if err != nil {
			t.Fatal(err)
		}
		data, err := stakingABI.Pack("stake", units)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseStake(alice.Hex(), f.pool.Hex(), hexutil.Encode(data), "0.01")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	plan, err := PlanStake(ctx, f.node, stakeCall("5"))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Token != f.token || plan.Approve == nil || plan.Allowance.Sign() != 0 || plan.Amount.Cmp(ether(5)) != 0 || len(plan.Calls()) != 2 {
		t.Fatalf("plan %+v", plan)
	}
	drafts, err := Build(ctx, f.node, approved(plan.Calls()), f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	if drafts[0].Summary.Title() != "ERC-20 token approve" || drafts[1].Summary.Title() != "staking pool stake" {
		t.Errorf("drafts %s, %s", drafts[0].Summary.Title(), drafts[1].Summary.Title())
	}
	// The stake reverts in an estimate before the approve is mined; the
	// node simulates the two in a row instead.
	if !drafts[0].GasEstimated || !drafts[1].GasEstimated || drafts[1].Tx.Gas() == DependentGasLimit {
		t.Errorf("approve estimated %v; stake estimated %v with gas %d", drafts[0].GasEstimated, drafts[1].GasEstimated, drafts[1].Tx.Gas())
	}
	if drafts[1].Tx.Nonce() != drafts[0].Tx.Nonce()+1 {
		t.Errorf("nonces %d, %d", drafts[0].Tx.Nonce(), drafts[1].Tx.Nonce())
	}
	for _, d := range drafts {
		if len(d.Summary.Warnings) != 0 {
			t.Errorf("%s: warnings %v", d.Summary.Title(), d.Summary.Warnings)
		}
		signed, err := d.Sign(f.alice)
		if err != nil {
			t.Fatal(err)
		}
		if err := Send(ctx, f.node, signed); err != nil {
			t.Fatal(err)
		}
		d.Tx = signed
	}
	for _, d := range drafts {
		if s := waitFinal(t, f, d.Tx); s.State != StateSuccess {
			t.Errorf("%s: %+v", d.Summary.Title(), s)
		}
	}
	if got := f.balance(t, alice); got.Cmp(ether(45)) != 0 {
		t.Errorf("alice holds %s after staking 5 of 50", got)
	}

	// With enough allowance, the stake goes alone.
	approve, _ := tokenABI.Pack("approve", f.pool, ether(10))
	txs := sendCalls(t, f, f.alice, f.buildOptions(f.alice), Call{From: alice, To: f.token, Data: approve, Value: new(big.Int)})
	f.chain.Commit()
	waitFinal(t, f, txs[0])
	plan, err = PlanStake(ctx, f.node, stakeCall("5"))
	if err != nil || plan.Approve != nil || len(plan.Calls()) != 1 {
		t.Errorf("plan with allowance 10 for 5: %+v, %v", plan, err)
	}
	// What is not a stake is planned as it is, for the policy to refuse.
	odd := Call{From: alice, To: f.pool, Data: approve}
	if plan, err := PlanStake(ctx, f.node, odd); err != nil || plan.Approve != nil || len(plan.Calls()) != 1 {
		t.Errorf("plan of an approve: %+v, %v; want it alone, unplanned", plan, err)
	}
	if plan, err := PlanStake(ctx, f.node, Call{From: alice, To: attacker, Data: must(chain.PackStake(ether(5)))}); err != nil || plan.Approve != nil {
		t.Errorf("plan of a stake in an address without code: %+v, %v; want it alone, unplanned", plan, err)
	}
}

// plainNode hides the simulated chain client's SimulateV1, as a node
// without eth_simulateV1 would.
type plainNode struct{ Node }

func TestStakeWithoutSimulation(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	data, _ := stakingABI.Pack("stake", ether(5))
	plan, err := PlanStake(ctx, f.node, Call{From: f.alice.Address(), To: f.pool, Data: data, Value: platformFee})
	if err != nil {
		t.Fatal(err)
	}
	drafts, err := Build(ctx, plainNode{f.node}, approved(plan.Calls()), f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	if drafts[1].GasEstimated || drafts[1].Tx.Gas() != DependentGasLimit {
		t.Fatalf("stake estimated %v, gas %d; want the fallback %d", drafts[1].GasEstimated, drafts[1].Tx.Gas(), DependentGasLimit)
	}
	for _, d := range drafts {
		signed, err := d.Sign(f.alice)
		if err != nil {
			t.Fatal(err)
		}
		if err := Send(ctx, f.node, signed); err != nil {
			t.Fatal(err)
		}
		if s := waitFinal(t, f, signed); s.State != StateSuccess {
			t.Errorf("%s: %+v", d.Summary.Title(), s)
		}
	}
}

// TestStakeThatWouldRevert: a stake that fails even after its approve is
// refused before signing, with the reason the simulation gives.
func TestStakeThatWouldRevert(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	data, _ := stakingABI.Pack("stake", ether(5))
	plan, err := PlanStake(ctx, f.node, Call{From: f.alice.Address(), To: f.pool, Data: data, Value: new(big.Int)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(ctx, f.node, approved(plan.Calls()), f.buildOptions(f.alice))
	var revert *RevertError
	if !errors.As(err, &revert) || revert.Reason != "WrongFee(expected: 10000000000000000, sent: 0)" {
		t.Errorf("Build: %v, want the simulated WrongFee revert", err)
	}
}

func TestSignRefusesWhatThePolicyDidNotApprove(t *testing.T) {
	f := newFixture(t)
	call := f.withdrawCall(t, aliceLeaf, f.alice.Address(), ether(10))
	drafts, err := build(context.Background(), f.node, "claim", []Call{call}, f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drafts[0].Sign(f.alice); !errors.Is(err, ErrRefused) {
		t.Errorf("sign a draft the policy never approved: %v, want ErrRefused", err)
	}
	if _, err := Build(context.Background(), f.node, nil, f.buildOptions(f.alice)); !errors.Is(err, ErrRefused) {
		t.Errorf("build without an approval: %v, want ErrRefused", err)
	}
}

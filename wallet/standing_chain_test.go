package wallet

import (
	"context"
	"math/big"
	"testing"
	"time"

	"allot/api/sandbox/chain"
	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// transferTopic is the ERC-20 Transfer event's.
var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// simulatedPayout runs a withdraw(0) of leaf on vester (through handler
// when it is not zero) in a block at time at (eth_simulateV1, nothing
// kept) and returns what the vester's token Transfers paid out of it, and
// to whom; ok is false when it reverted.
func simulatedPayout(t *testing.T, node Node, vester common.Address, leaf chain.Leaf, handler common.Address, fee *big.Int, at time.Time) (paid *big.Int, to common.Address, ok bool) {
	t.Helper()
	ctx := context.Background()
	data, err := chain.PackWithdraw(new(big.Int), leaf.RootIndex, leaf.DecodableArgs, leaf.Proof)
	if handler != (common.Address{}) {
		data, err = chain.PackWithdrawThrough(new(big.Int), leaf.RootIndex, leaf.DecodableArgs, leaf.Proof, handler, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	sim, isSim := node.(simulator)
	if !isSim {
		t.Fatal("the sandbox chain's client does not simulate")
	}
	when := uint64(at.Unix())
	sender := common.Address{0x5e, 0xd0}
	latest := rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)
	results, err := sim.SimulateV1(ctx, ethclient.SimulateOptions{BlockStateCalls: []ethclient.SimulateBlock{{
		BlockOverrides: &ethereum.BlockOverrides{Time: when},
		StateOverrides: map[common.Address]ethereum.OverrideAccount{sender: {Balance: ether(1)}},
		Calls:          []ethereum.CallMsg{{From: sender, To: &vester, Value: fee, Data: data}},
	}}}, &latest)
	if err != nil || len(results) != 1 || len(results[0].Calls) != 1 {
		t.Fatalf("simulate withdraw(0): %v, %+v", err, results)
	}
	call := results[0].Calls[0]
	if call.Status != types.ReceiptStatusSuccessful {
		return nil, common.Address{}, false
	}
	paid = new(big.Int)
	for _, l := range call.Logs {
		if len(l.Topics) == 3 && l.Topics[0] == transferTopic && common.BytesToAddress(l.Topics[1].Bytes()) == vester {
			paid.Add(paid, new(big.Int).SetBytes(l.Data))
			to = common.BytesToAddress(l.Topics[2].Bytes())
		}
	}
	return paid, to, true
}

// TestStandingAgreesWithTheVester: on the sandbox chain, whose vester is
// the production one's twin (D18), an allocation in each state of its life
// is read by VerifyProof, and what it says a claim pays now is, to the
// wei, what a withdraw(0) of it pays, to the address it names.
func TestStandingAgreesWithTheVester(t *testing.T) {
	ctx := context.Background()
	c, err := chain.New(chain.Options{Start: testStart})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	node := c.Client()
	start := uint32(testStart.Unix())
	beneficiary, newAddress := common.Address{0xbe}, common.Address{0x2e}
	names := []string{"active", "claimed in part", "cancelled", "revoked", "revoked after a claim", "transferred", "underfunded", "through handler"}
	var leaves []common.Hash
	var allArgs [][]byte
	for i, name := range names {
		data, err := vesting.Encode(vesting.Args{
			Allocation: vesting.Allocation{ID: name, OriginalBeneficiary: beneficiary, TotalAllocation: ether(1000 + int64(i)),
				Cancelable: true, Revokable: true, TransferableByAdmin: true},
			Schedule: vesting.Schedule{Kind: vesting.Interval, UnlockScheduleID: "S",
				Pieces: []vesting.Piece{{StartDate: start, PeriodLength: 100, NumberOfPeriods: 10, Percent: 1_000_000}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		allArgs, leaves = append(allArgs, data), append(leaves, merkle.Leaf(data))
	}
	tree, err := merkle.New(leaves)
	if err != nil {
		t.Fatal(err)
	}
	leaf := func(i int) chain.Leaf {
		proof, err := tree.Proof(leaves[i])
		if err != nil {
			t.Fatal(err)
		}
		return chain.Leaf{DecodableArgs: allArgs[i], Proof: proof}
	}
	var token, vester, poor, via, vault common.Address
	err = c.Transact(ctx, func(b *chain.Batch) {
		token = b.DeployToken("Life", "LIFE")
		vester, poor, via = b.DeployVester(token, claimFee), b.DeployVester(token, claimFee), b.DeployVester(token, claimFee)
		vault = b.DeployPostClaimVault(via, token)
		b.DisallowDirectClaim(via)
		for _, v := range []common.Address{vester, poor, via} {
			b.AddRoot(v, tree.Root())
		}
		b.Mint(token, c.Deployer(), ether(100_000))
		b.Fund(vester, ether(50_000))
		b.Fund(poor, ether(30))
		b.Fund(via, ether(10_000))
	})
	if err != nil {
		t.Fatal(err)
	}
	// Blocks are a second apart: 250 s in, a quarter has vested.
	if err := c.AdvanceTime(250 * time.Second); err != nil {
		t.Fatal(err)
	}
	err = c.Transact(ctx, func(b *chain.Batch) {
		b.Withdraw(vester, leaf(1), ether(100), claimFee)
		b.Cancel(vester, leaf(2))
		b.Revoke(vester, leaf(3))
		b.Withdraw(vester, leaf(4), ether(50), claimFee)
		b.TransferBeneficiary(vester, leaf(5), newAddress)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Transact(ctx, func(b *chain.Batch) { b.Revoke(vester, leaf(4)) })
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AdvanceTime(300 * time.Second); err != nil {
		t.Fatal(err)
	}

	head, err := node.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(int64(head.Time)+1, 0).UTC() // the block a claim is mined in
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			on, handler, recipient := vester, common.Address{}, common.Address{}
			switch name {
			case "underfunded":
				on = poor
			case "through handler":
				on, handler, recipient = via, vault, vault
			}
			l := leaf(i)
			leafHash := leaves[i]
			p := &Proof{ID: name, DecodableArgs: l.DecodableArgs, Hash: &leafHash, Siblings: l.Proof}
			v := VerifyProof(ctx, p, VerifyOptions{Now: at, Chain: node, Vester: on})
			if !v.OK() {
				t.Fatalf("outcome %s: %v %v", v.Outcome(), v.Failures(), v.Unchecked())
			}
			claimable := v.Claimable()
			paid, to, ok := simulatedPayout(t, node, on, l, handler, claimFee, at)
			if recipient == (common.Address{}) {
				recipient = v.Standing.Recipient(beneficiary)
			}
			switch {
			case claimable == nil:
				t.Fatal("no claimable amount")
			case !ok && claimable.Sign() != 0:
				t.Errorf("allot says %s is claimable; the vester's withdraw(0) reverts", FormatUnits(claimable))
			case ok && paid.Cmp(claimable) != 0:
				t.Errorf("allot says %s wei is claimable; the vester pays %s wei", claimable, paid)
			case ok && to != recipient:
				t.Errorf("the vester pays %s; allot says the tokens go to %s", to.Hex(), recipient.Hex())
			}
			if direct := v.Standing.DirectClaim(); direct != (name != "through handler") {
				t.Errorf("direct claim = %t, handlers %v", direct, v.Standing.ViaHandlers())
			}
			want := map[string]string{"cancelled": "cancelled", "revoked": "revoked", "revoked after a claim": "revoked"}[name]
			if want == "" {
				want = "active"
			}
			if v.Standing.State() != want {
				t.Errorf("state %s, want %s", v.Standing.State(), want)
			}
			if got := v.Standing.Transferred(beneficiary); got != (name == "transferred") {
				t.Errorf("transferred = %t", got)
			}
			if got := v.Payout.Underfunded(); got != (name == "underfunded") {
				t.Errorf("underfunded = %t", got)
			}
			t.Logf("%s: claimable %s", name, FormatUnits(claimable))
		})
	}
}

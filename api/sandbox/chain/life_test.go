package chain

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// lifeFixture is a funded vester whose root 0 commits three allocations
// with the flags an allocation's life depends on (D18), and a fourth that
// fills the tree.
type lifeFixture struct {
	c                 *Chain
	token, vester     common.Address
	alice, bob, carol *ecdsa.PrivateKey
	benefactor        *ecdsa.PrivateKey
	tree              *testTree
	args              [4][]byte
	t1, t2            time.Time // managed: 25% at t1, 75% at t2
}

const (
	// managed is alice's calendar allocation of 1000: cancelable,
	// revokable, transferable by the benefactor.
	managed = 0
	// plain is bob's interval allocation of 1200 with no flag set.
	plain = 1
	// portable is bob's calendar allocation of 100, transferable by its
	// beneficiary only.
	portable = 2
	filler   = 3
)

var lifeIDs = [4]string{"life-managed", "life-plain", "life-portable", "life-filler"}

func newLifeFixture(t *testing.T) *lifeFixture {
	t.Helper()
	f := &lifeFixture{alice: testKey(t, "alice"), bob: testKey(t, "bob"), carol: testKey(t, "carol")}
	f.c = newTestChain(t, f.alice, f.bob, f.carol)
	f.benefactor = f.c.deployer
	f.t1, f.t2 = testStart.Add(100*time.Second), testStart.Add(1000*time.Second)
	calendar := testCalendar{UnlockScheduleId: "S-CAL", UnlockTimestamps: []uint32{uint32(f.t1.Unix()), uint32(f.t2.Unix())},
		UnlockPercents: []*big.Int{big.NewInt(250_000), big.NewInt(750_000)}}
	f.args[managed] = encodeCalendar(t, testAllocation{Id: lifeIDs[managed], OriginalBeneficiary: addr(f.alice), TotalAllocation: ether(1000),
		Cancelable: true, Revokable: true, TransferableByAdmin: true}, calendar)
	f.args[plain] = encodeInterval(t, testAllocation{Id: lifeIDs[plain], OriginalBeneficiary: addr(f.bob), TotalAllocation: ether(1200)},
		testInterval{UnlockScheduleId: "S-LIN", Pieces: []testPiece{{StartDate: uint32(f.t1.Unix()), PeriodLength: 100, NumberOfPeriods: 4, Percent: 1_000_000}}})
	f.args[portable] = encodeCalendar(t, testAllocation{Id: lifeIDs[portable], OriginalBeneficiary: addr(f.bob), TotalAllocation: ether(100),
		TransferableByBeneficiary: true}, calendar)
	f.args[filler] = encodeCalendar(t, testAllocation{Id: lifeIDs[filler], OriginalBeneficiary: addr(f.carol), TotalAllocation: ether(1)}, calendar)
	f.tree = newTestTree(t, f.args[:]...)
	err := f.c.Transact(context.Background(), func(b *Batch) {
		f.token = b.DeployToken("Allot Test", "AT")
		f.vester = b.DeployVester(f.token, claimFee)
		b.AddRoot(f.vester, f.tree.root())
		b.Mint(f.token, f.c.Deployer(), ether(10_000))
		b.Fund(f.vester, ether(10_000))
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *lifeFixture) withdraw(t testing.TB, i int, amount *big.Int) []byte {
	t.Helper()
	return mustPack(t)(PackWithdraw(amount, 0, f.args[i], f.tree.proof(i)))
}

func (f *lifeFixture) cancel(t testing.TB, i int) []byte {
	t.Helper()
	return mustPack(t)(PackCancel(0, f.args[i], f.tree.proof(i)))
}

func (f *lifeFixture) revoke(t testing.TB, i int) []byte {
	t.Helper()
	return mustPack(t)(PackRevoke(0, f.args[i], f.tree.proof(i)))
}

func (f *lifeFixture) transfer(t testing.TB, i int, to common.Address) []byte {
	t.Helper()
	return mustPack(t)(PackTransferBeneficiary(to, 0, f.args[i], f.tree.proof(i)))
}

func (f *lifeFixture) schedule(t testing.TB, i int) Schedule {
	t.Helper()
	s, err := f.c.Schedule(context.Background(), f.vester, lifeIDs[i])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (f *lifeFixture) balance(t testing.TB, owner common.Address) *big.Int {
	t.Helper()
	return mustBig(t)(f.c.BalanceOf(context.Background(), f.token, owner))
}

// received sends a withdraw of leaf i from sender and returns what each of
// the accounts gained.
func (f *lifeFixture) received(t testing.TB, sender *ecdsa.PrivateKey, i int, amount *big.Int, accounts ...common.Address) []*big.Int {
	t.Helper()
	before := make([]*big.Int, len(accounts))
	for j, a := range accounts {
		before[j] = f.balance(t, a)
	}
	mustOK(t, send(t, f.c, sender, f.vester, claimFee, f.withdraw(t, i, amount)))
	out := make([]*big.Int, len(accounts))
	for j, a := range accounts {
		out[j] = new(big.Int).Sub(f.balance(t, a), before[j])
	}
	return out
}

// eventArgs returns the arguments of the vester's events named name in r.
func eventArgs(t testing.TB, r *types.Receipt, vester common.Address, name string) [][]any {
	t.Helper()
	ev := Vester.ABI.Events[name]
	var out [][]any
	for _, l := range r.Logs {
		if l.Address != vester || len(l.Topics) == 0 || l.Topics[0] != ev.ID {
			continue
		}
		values, err := ev.Inputs.Unpack(l.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, values)
	}
	return out
}

func callMsg(from, to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{From: from, To: &to, Data: data}
}

func wantCmp(t testing.TB, what string, got, want *big.Int) {
	t.Helper()
	if got.Cmp(want) != 0 {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func TestSchedulesGetter(t *testing.T) {
	f := newLifeFixture(t)
	s := f.schedule(t, managed)
	if s.WithdrawalAddress != (common.Address{}) || s.TerminatedTimestamp != 0 || s.Withdrawn.Sign() != 0 ||
		s.TerminatedWithdrawn.Sign() != 0 || s.FundedAmount.Sign() != 0 || s.TerminatedAmount.Sign() != 0 {
		t.Errorf("an untouched allocation reads %+v, want all zero", s)
	}
	advanceTo(t, f.c, f.t1)
	mustOK(t, send(t, f.c, f.bob, f.vester, claimFee, f.withdraw(t, managed, ether(100))))
	s = f.schedule(t, managed)
	// The first withdraw records the original beneficiary, as production's.
	if s.WithdrawalAddress != addr(f.alice) || s.TerminatedTimestamp != 0 {
		t.Errorf("after a withdraw: %+v, want alice's address and active", s)
	}
	wantCmp(t, "withdrawn", s.Withdrawn, ether(100))
	wantCmp(t, "the other allocation's withdrawn", f.schedule(t, plain).Withdrawn, new(big.Int))
}

// TestCancel: a benefactor stops a cancelable allocation's vesting; what
// vested until then stays withdrawable, nothing more vests.
func TestCancel(t *testing.T) {
	f := newLifeFixture(t)
	ctx := context.Background()
	advanceTo(t, f.c, f.t1.Add(10*time.Second))

	r := revertOf(t, f.c, addr(f.alice), f.vester, nil, f.cancel(t, managed))
	if r.Name != "AccessControlUnauthorizedAccount" || len(r.Params) != 2 || r.Params[0].Value != addr(f.alice) {
		t.Errorf("cancel by the beneficiary: %s, want AccessControlUnauthorizedAccount(alice, BENEFACTOR)", r.Error())
	} else if role := r.Params[1].Value.([32]byte); common.Hash(role) != crypto.Keccak256Hash([]byte("BENEFACTOR")) {
		t.Errorf("cancel by the beneficiary needs role %x, want BENEFACTOR", role)
	}
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.cancel(t, plain)), "NotCancellable()")

	receipt := send(t, f.c, f.benefactor, f.vester, nil, f.cancel(t, managed))
	mustOK(t, receipt)
	block, err := f.c.Client().HeaderByNumber(ctx, receipt.BlockNumber)
	if err != nil {
		t.Fatal(err)
	}
	if s := f.schedule(t, managed); uint64(s.TerminatedTimestamp) != block.Time {
		t.Errorf("terminatedTimestamp %d, want the cancel's block time %d", s.TerminatedTimestamp, block.Time)
	}
	if evs := eventArgs(t, receipt, f.vester, "ScheduleCanceled"); len(evs) != 1 || evs[0][0] != lifeIDs[managed] {
		t.Errorf("ScheduleCanceled events %v, want one for %s", evs, lifeIDs[managed])
	}
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.cancel(t, managed)), "AlreadyTerminated()")
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.revoke(t, managed)), "AlreadyTerminated()")

	// Past t2 the schedule would be whole; it stopped at the cancel.
	advanceTo(t, f.c, f.t2.Add(time.Hour))
	got := f.received(t, f.bob, managed, new(big.Int), addr(f.alice))[0]
	wantCmp(t, "withdraw(0) after the cancel", got, ether(250))
	wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, claimFee, f.withdraw(t, managed, big.NewInt(1))), "InsufficientFunds()")
}

// TestCancelFullyUnlocked: once the schedule has ended there is nothing
// left to cancel.
func TestCancelFullyUnlocked(t *testing.T) {
	f := newLifeFixture(t)
	advanceTo(t, f.c, f.t2) // calls run at the head's time, a second before t2
	if _, err := f.c.Client().EstimateGas(context.Background(), callMsg(f.c.Deployer(), f.vester, f.cancel(t, managed))); err != nil {
		t.Errorf("cancel a second before the end: %v", err)
	}
	advanceTo(t, f.c, f.t2.Add(time.Second)) // calls run at t2
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.cancel(t, managed)), "AlreadyFullyUnlocked()")
}

// TestRevoke: a revoked allocation has nothing withdrawable: withdraw(0)
// reverts AmountZero, or Panic 0x11 when something was withdrawn before.
func TestRevoke(t *testing.T) {
	t.Run("before any claim", func(t *testing.T) {
		f := newLifeFixture(t)
		advanceTo(t, f.c, f.t2)
		r := revertOf(t, f.c, addr(f.bob), f.vester, nil, f.revoke(t, managed))
		if r.Name != "AccessControlUnauthorizedAccount" {
			t.Errorf("revoke by a stranger: %s, want AccessControlUnauthorizedAccount", r.Error())
		}
		wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.revoke(t, plain)), "NotRevokable()")
		receipt := send(t, f.c, f.benefactor, f.vester, nil, f.revoke(t, managed))
		mustOK(t, receipt)
		if evs := eventArgs(t, receipt, f.vester, "ScheduleRevoked"); len(evs) != 1 || evs[0][0] != lifeIDs[managed] {
			t.Errorf("ScheduleRevoked events %v, want one for %s", evs, lifeIDs[managed])
		}
		if s := f.schedule(t, managed); s.TerminatedTimestamp != Revoked {
			t.Errorf("terminatedTimestamp %d, want %d", s.TerminatedTimestamp, Revoked)
		}
		wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, claimFee, f.withdraw(t, managed, new(big.Int))), "AmountZero()")
		wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, claimFee, f.withdraw(t, managed, big.NewInt(1))), "InsufficientFunds()")
		wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.revoke(t, managed)), "AlreadyTerminated()")
	})
	t.Run("after a claim", func(t *testing.T) {
		f := newLifeFixture(t)
		advanceTo(t, f.c, f.t1)
		mustOK(t, send(t, f.c, f.alice, f.vester, claimFee, f.withdraw(t, managed, ether(10))))
		mustOK(t, send(t, f.c, f.benefactor, f.vester, nil, f.revoke(t, managed)))
		// Vested at time 1 is 0, less 10 withdrawn: production underflows.
		wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, claimFee, f.withdraw(t, managed, new(big.Int))),
			"Panic(code: 0x11 arithmetic overflow)")
		wantCmp(t, "withdrawn after the revoke", f.schedule(t, managed).Withdrawn, ether(10))
	})
}

// TestTransferBeneficiary: by the benefactor when the leaf allows it, or
// by the current withdrawal address when the leaf allows that; the
// tokens of later withdraws go to the new address, whoever sends them.
func TestTransferBeneficiary(t *testing.T) {
	f := newLifeFixture(t)
	alice, bob, carol := addr(f.alice), addr(f.bob), addr(f.carol)
	advanceTo(t, f.c, f.t1)

	wantRevert(t, revertOf(t, f.c, alice, f.vester, nil, f.transfer(t, managed, carol)), "NotTransferable()")
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.transfer(t, plain, carol)), "NotTransferable()")
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.transfer(t, managed, common.Address{})), "ZeroBeneficiary()")
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.transfer(t, managed, alice)), "SameBeneficiaryAddress()")

	receipt := send(t, f.c, f.benefactor, f.vester, nil, f.transfer(t, managed, carol))
	mustOK(t, receipt)
	if evs := eventArgs(t, receipt, f.vester, "TransferredBeneficiary"); len(evs) != 1 || evs[0][0] != lifeIDs[managed] || evs[0][1] != carol {
		t.Errorf("TransferredBeneficiary events %v, want (%s, %s)", evs, lifeIDs[managed], carol)
	}
	if s := f.schedule(t, managed); s.WithdrawalAddress != carol {
		t.Errorf("withdrawalAddress %s, want carol %s", s.WithdrawalAddress, carol)
	}
	got := f.received(t, f.alice, managed, new(big.Int), alice, carol)
	wantCmp(t, "alice (the original beneficiary, sending) received", got[0], new(big.Int))
	wantCmp(t, "carol (the new withdrawal address) received", got[1], ether(250))

	// Transferable by the beneficiary: bob may, the benefactor may not;
	// once moved, the new address holds that right and bob no longer.
	wantRevert(t, revertOf(t, f.c, f.c.Deployer(), f.vester, nil, f.transfer(t, portable, carol)), "NotTransferable()")
	mustOK(t, send(t, f.c, f.bob, f.vester, nil, f.transfer(t, portable, alice)))
	wantRevert(t, revertOf(t, f.c, bob, f.vester, nil, f.transfer(t, portable, carol)), "NotTransferable()")
	mustOK(t, send(t, f.c, f.alice, f.vester, nil, f.transfer(t, portable, carol)))
	got = f.received(t, f.bob, portable, new(big.Int), bob, carol)
	wantCmp(t, "bob received", got[0], new(big.Int))
	wantCmp(t, "carol received", got[1], ether(25))
}

// TestUnderfundedVester: a vester holding less than is vested pays what it
// holds; asking more reverts InsufficientFunds.
func TestUnderfundedVester(t *testing.T) {
	f := newLifeFixture(t)
	advanceTo(t, f.c, f.t2)
	left := ether(300) // less than alice's 1000 vested
	if err := f.c.Transact(context.Background(), func(b *Batch) {
		b.Defund(f.vester, new(big.Int).Sub(ether(10_000), left))
	}); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, claimFee, f.withdraw(t, managed, new(big.Int).Add(left, big.NewInt(1)))), "InsufficientFunds()")
	got := f.received(t, f.alice, managed, new(big.Int), addr(f.alice))[0]
	wantCmp(t, "withdraw(0) from an underfunded vester", got, left)
	wantCmp(t, "withdrawn", f.schedule(t, managed).Withdrawn, left)
	// Empty now: nothing withdrawable though 700 are vested.
	wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, claimFee, f.withdraw(t, managed, new(big.Int))), "AmountZero()")
}

// TestWithdrawThroughHandler: the second withdraw pays a whitelisted
// handler, which is then called with the claim; the wallet gets nothing.
func TestWithdrawThroughHandler(t *testing.T) {
	f := newLifeFixture(t)
	ctx := context.Background()
	alice := addr(f.alice)
	var vault common.Address
	if err := f.c.Transact(ctx, func(b *Batch) { vault = b.DeployPostClaimVault(f.vester, f.token) }); err != nil {
		t.Fatal(err)
	}
	handlers, err := f.c.PostClaimHandlers(ctx, f.vester)
	if err != nil || !slices.Equal(handlers, []common.Address{{}, vault}) {
		t.Errorf("PostClaimHandlers = %v, %v; want the direct claim and the vault", handlers, err)
	}
	advanceTo(t, f.c, f.t1)
	through := func(handler common.Address, amount *big.Int) []byte {
		return mustPack(t)(PackWithdrawThrough(amount, 0, f.args[managed], f.tree.proof(managed), handler, []byte("stake 12 months")))
	}
	before := f.balance(t, alice)
	receipt := send(t, f.c, f.alice, f.vester, claimFee, through(vault, ether(100)))
	mustOK(t, receipt)
	// 150 are still withdrawable: the whitelist, checked last, refuses.
	wantRevert(t, revertOf(t, f.c, alice, f.vester, claimFee, through(addr(f.carol), ether(1))), "PostClaimHandlerNotWhitelisted()")
	wantCmp(t, "alice's tokens", f.balance(t, alice), before)
	wantCmp(t, "the vault's tokens", f.balance(t, vault), ether(100))
	wantCmp(t, "held for alice", mustBig(t)(f.c.Held(ctx, vault, alice)), ether(100))
	held := PostClaimVault.ABI.Events["ClaimHeld"]
	var seen bool
	for _, l := range receipt.Logs {
		if l.Address == vault && l.Topics[0] == held.ID {
			values, err := held.Inputs.Unpack(l.Data)
			if err != nil {
				t.Fatal(err)
			}
			seen = values[0] == lifeIDs[managed] && values[1].(*big.Int).Cmp(ether(100)) == 0 &&
				bytes.Equal(values[2].([]byte), []byte("stake 12 months")) && common.BytesToAddress(l.Topics[1][:]) == alice
		}
	}
	if !seen {
		t.Error("the vault was not called with the claim (allocation id, amount, extra data, withdrawal address)")
	}
	wantCmp(t, "withdrawn", f.schedule(t, managed).Withdrawn, ether(100))

	// Release: the withdrawal address takes its tokens out of the vault.
	mustOK(t, send(t, f.c, f.alice, vault, nil, mustPack(t)(PostClaimVault.ABI.Pack("release"))))
	wantCmp(t, "alice's tokens after release", f.balance(t, alice), new(big.Int).Add(before, ether(100)))

	// Without address 0 on the whitelist the direct claim is refused.
	if err := f.c.Transact(ctx, func(b *Batch) { b.DisallowDirectClaim(f.vester) }); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, revertOf(t, f.c, alice, f.vester, claimFee, f.withdraw(t, managed, ether(1))), "PostClaimHandlerNotWhitelisted()")
	mustOK(t, send(t, f.c, f.alice, f.vester, claimFee, through(vault, ether(1))))
}

// TestClaimFeeProduction: the fee is exact, goes to the fee collector at
// once, and getClaimFee is declared state-changing; a withdraw's only log
// is the token's Transfer.
func TestClaimFeeProduction(t *testing.T) {
	f := newLifeFixture(t)
	ctx := context.Background()
	if m := Vester.ABI.Methods["getClaimFee"]; m.StateMutability != "nonpayable" {
		t.Errorf("getClaimFee is %s, want nonpayable as in production", m.StateMutability)
	}
	advanceTo(t, f.c, f.t1)
	wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, nil, f.withdraw(t, managed, ether(1))), "InvalidFeeFundsSent()")
	wantRevert(t, revertOf(t, f.c, addr(f.alice), f.vester, new(big.Int).Add(claimFee, big.NewInt(1)), f.withdraw(t, managed, ether(1))), "InvalidFeeFundsSent()")
	collector := f.c.Deployer()
	before, err := f.c.Client().BalanceAt(ctx, collector, nil)
	if err != nil {
		t.Fatal(err)
	}
	receipt := send(t, f.c, f.alice, f.vester, claimFee, f.withdraw(t, managed, ether(1)))
	mustOK(t, receipt)
	after, err := f.c.Client().BalanceAt(ctx, collector, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantCmp(t, "the fee collector's gain", new(big.Int).Sub(after, before), claimFee)
	vesterCoin, err := f.c.Client().BalanceAt(ctx, f.vester, nil)
	if err != nil || vesterCoin.Sign() != 0 {
		t.Errorf("the vester keeps %s wei, %v; want the fee forwarded", vesterCoin, err)
	}
	transfer := Token.ABI.Events["Transfer"].ID
	if len(receipt.Logs) != 1 || receipt.Logs[0].Address != f.token || receipt.Logs[0].Topics[0] != transfer {
		t.Errorf("a withdraw logged %d entries, want only the token's Transfer", len(receipt.Logs))
	}
}

// TestErrorsAreProductions: the vester's custom errors carry production's
// names and empty parameter lists, so their selectors are production's
// (the issue's own: InsufficientFunds() is 0x356680b7).
func TestErrorsAreProductions(t *testing.T) {
	production := []string{"ZeroToken", "ZeroBeneficiary", "AmountZero", "NotCancellable", "NotRevokable",
		"NotTransferable", "SameBeneficiaryAddress", "InvalidWithdrawal", "AlreadyTerminated", "AlreadyFullyUnlocked",
		"InvalidAllocationType", "DeflationaryTokensNotSupported", "InvalidAllocation", "InsufficientFunds",
		"InvalidMerkleProof", "InvalidFeeCollector", "InvalidFeeFundsSent", "ClaimHandlerAlreadyWhitelisted",
		"ClaimHandlerNotYetWhitelisted", "PostClaimHandlerNotWhitelisted"}
	for _, name := range production {
		e, ok := Vester.ABI.Errors[name]
		if !ok {
			t.Errorf("the vester has no %s", name)
			continue
		}
		if want := crypto.Keccak256([]byte(name + "()"))[:4]; e.Sig != name+"()" || !bytes.Equal(e.ID[:4], want) {
			t.Errorf("%s: signature %s, selector %x; want %s(), %x", name, e.Sig, e.ID[:4], name, want)
		}
	}
	if id := Vester.ABI.Errors["InsufficientFunds"].ID; common.Bytes2Hex(id[:4]) != "356680b7" {
		t.Errorf("InsufficientFunds() is %x, want 356680b7", id[:4])
	}
}

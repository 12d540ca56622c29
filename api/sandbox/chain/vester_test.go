package chain

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

var claimFee = big.NewInt(1_000_000_000_000_000) // 0.001 ether

// vesterFixture is a funded vester whose root 0 commits four allocations:
// a calendar one and an interval one for alice, an interval one for bob,
// and one for carol whose one-off piece has a period of length 0 (which
// the vester cannot compute before the schedule's end).
type vesterFixture struct {
	c                 *Chain
	token, vester     common.Address
	alice, bob, carol *ecdsa.PrivateKey
	tree              *testTree
	args              [4][]byte // decodableArgs of the leaves, in tree order

	// Schedule times, relative to the chain's genesis.
	t1, t2 time.Time // calendar: 25% at t1, 75% at t2
	s      time.Time // bob's pieces start here
}

const (
	aliceCalendar = 0
	bobInterval   = 1
	aliceInterval = 2
	carolZero     = 3
)

func newVesterFixture(t *testing.T) *vesterFixture {
	t.Helper()
	f := &vesterFixture{alice: testKey(t, "alice"), bob: testKey(t, "bob"), carol: testKey(t, "carol")}
	f.c = newTestChain(t, f.alice, f.bob, f.carol)
	f.t1 = testStart.Add(100 * time.Second)
	f.t2 = testStart.Add(1000 * time.Second)
	f.s = testStart.Add(200 * time.Second)
	s := uint32(f.s.Unix())

	f.args[aliceCalendar] = encodeCalendar(t,
		testAllocation{Id: "alloc-alice-calendar", OriginalBeneficiary: addr(f.alice), TotalAllocation: ether(1000), Cancelable: true},
		testCalendar{UnlockScheduleId: "S-CALENDAR", UnlockTimestamps: []uint32{uint32(f.t1.Unix()), uint32(f.t2.Unix())},
			UnlockPercents: []*big.Int{big.NewInt(250_000), big.NewInt(750_000)}})
	f.args[bobInterval] = encodeInterval(t,
		testAllocation{Id: "alloc-bob-interval", OriginalBeneficiary: addr(f.bob), TotalAllocation: ether(1200)},
		testInterval{UnlockScheduleId: "S-LINEAR", Pieces: []testPiece{{StartDate: s, PeriodLength: 100, NumberOfPeriods: 4, Percent: 1_000_000}}})
	f.args[aliceInterval] = encodeInterval(t,
		testAllocation{Id: "alloc-alice-interval", OriginalBeneficiary: addr(f.alice), TotalAllocation: big.NewInt(1_000_003)},
		testInterval{UnlockScheduleId: "S-CLIFF", Pieces: []testPiece{
			// A one-off 20% at s: one period of one second.
			{StartDate: s - 1, PeriodLength: 1, NumberOfPeriods: 1, Percent: 200_000},
			{StartDate: s, PeriodLength: 30, NumberOfPeriods: 3, Percent: 800_000},
		}})
	f.args[carolZero] = encodeInterval(t,
		testAllocation{Id: "alloc-carol-zero", OriginalBeneficiary: addr(f.carol), TotalAllocation: ether(10)},
		testInterval{UnlockScheduleId: "S-ZERO", Pieces: []testPiece{
			{StartDate: s, PeriodLength: 0, NumberOfPeriods: 1, Percent: 500_000},
			{StartDate: s, PeriodLength: 100, NumberOfPeriods: 2, Percent: 500_000}, // ends at s+200
		}})
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

func (f *vesterFixture) withdrawData(t testing.TB, leaf int, amount *big.Int, proof []common.Hash) []byte {
	t.Helper()
	data, err := PackWithdraw(amount, 0, f.args[leaf], proof)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// withdrawn reads schedules(id).withdrawn on the fixture's vester.
func (f *vesterFixture) withdrawn(t testing.TB, id string) *big.Int {
	t.Helper()
	s, err := f.c.Schedule(context.Background(), f.vester, id)
	if err != nil {
		t.Fatal(err)
	}
	return s.Withdrawn
}

func (f *vesterFixture) balance(t testing.TB, key *ecdsa.PrivateKey) *big.Int {
	t.Helper()
	return mustBig(t)(f.c.BalanceOf(context.Background(), f.token, addr(key)))
}

func TestVesterSetup(t *testing.T) {
	f := newVesterFixture(t)
	ctx := context.Background()
	root, err := f.c.MerkleRoot(ctx, f.vester, 0)
	if err != nil || root != f.tree.root() {
		t.Errorf("MerkleRoot(0) = %s, %v; want %s", root, err, f.tree.root())
	}
	// merkleRoots is an array, as on the production vester: its getter
	// reverts past the end (without data: Solidity's getters do not Panic),
	// where a mapping would answer the zero hash.
	_, err = f.c.MerkleRoot(ctx, f.vester, 1)
	if data, ok := RevertData(err); !ok || len(data) != 0 {
		t.Errorf("MerkleRoot(1): %v, want a revert without data", err)
	}
	if got := mustBig(t)(f.c.BalanceOf(ctx, f.token, f.vester)); got.Cmp(ether(10_000)) != 0 {
		t.Errorf("vester holds %s, want %s", got, ether(10_000))
	}
	if got := mustBig(t)(f.c.ClaimFee(ctx, f.vester)); got.Cmp(claimFee) != 0 {
		t.Errorf("ClaimFee = %s, want %s", got, claimFee)
	}
	if got := mustBig(t)(f.c.ClaimFeeOf(ctx, f.vester, "alloc-alice-calendar")); got.Cmp(claimFee) != 0 {
		t.Errorf("ClaimFeeOf = %s, want %s", got, claimFee)
	}
}

// TestWithdrawCalendar claims a calendar allocation as its beneficiary at
// its unlock times and checks every refusal along the way.
func TestWithdrawCalendar(t *testing.T) {
	f := newVesterFixture(t)
	alice := addr(f.alice)
	proof := f.tree.proof(aliceCalendar)
	one := big.NewInt(1)

	// Before t1 nothing is unlocked.
	wantRevert(t, revertOf(t, f.c, alice, f.vester, claimFee, f.withdrawData(t, aliceCalendar, one, proof)),
		"InsufficientFunds()")

	// Mined exactly at t1, 25% is withdrawable and is paid out exactly.
	advanceTo(t, f.c, f.t1)
	before := f.balance(t, f.alice)
	mustOK(t, send(t, f.c, f.alice, f.vester, claimFee, f.withdrawData(t, aliceCalendar, ether(250), proof)))
	if got := new(big.Int).Sub(f.balance(t, f.alice), before); got.Cmp(ether(250)) != 0 {
		t.Errorf("alice received %s, want %s", got, ether(250))
	}
	if got := f.withdrawn(t, "alloc-alice-calendar"); got.Cmp(ether(250)) != 0 {
		t.Errorf("schedules().withdrawn = %s, want %s", got, ether(250))
	}

	forged := append([]common.Hash(nil), proof...)
	forged[0][31] ^= 1
	amount := ether(1)
	for _, tc := range []struct {
		name  string
		from  common.Address
		value *big.Int
		data  []byte
		want  string
	}{
		{"more than unlocked", alice, claimFee, f.withdrawData(t, aliceCalendar, one, proof),
			"InsufficientFunds()"},
		{"forged proof", alice, claimFee, f.withdrawData(t, aliceCalendar, amount, forged), "InvalidMerkleProof()"},
		{"another leaf's proof", alice, claimFee, f.withdrawData(t, aliceCalendar, amount, f.tree.proof(bobInterval)), "InvalidMerkleProof()"},
		{"no fee", alice, nil, f.withdrawData(t, aliceCalendar, amount, proof),
			"InvalidFeeFundsSent()"},
		{"fee too high", alice, ether(1), f.withdrawData(t, aliceCalendar, amount, proof),
			"InvalidFeeFundsSent()"},
		{"unknown root", alice, claimFee, mustPack(t)(PackWithdraw(amount, 1, f.args[aliceCalendar], proof)),
			"Panic(code: 0x32 array index out of bounds)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantRevert(t, revertOf(t, f.c, tc.from, f.vester, tc.value, tc.data), tc.want)
		})
	}

	// A refused claim that is mined anyway fails and pays nothing.
	before = f.balance(t, f.alice)
	mustFail(t, send(t, f.c, f.alice, f.vester, claimFee, f.withdrawData(t, aliceCalendar, amount, forged)))
	if got := f.balance(t, f.alice); got.Cmp(before) != 0 {
		t.Errorf("a failed claim changed alice's balance from %s to %s", before, got)
	}

	// At t2 the rest unlocks: 750 more, and not a unit beyond.
	advanceTo(t, f.c, f.t2)
	mustFail(t, send(t, f.c, f.alice, f.vester, claimFee, f.withdrawData(t, aliceCalendar, new(big.Int).Add(ether(750), one), proof)))
	mustOK(t, send(t, f.c, f.alice, f.vester, claimFee, f.withdrawData(t, aliceCalendar, ether(750), proof)))
	if got := new(big.Int).Sub(f.balance(t, f.alice), before); got.Cmp(ether(750)) != 0 {
		t.Errorf("alice received %s, want %s", got, ether(750))
	}
	wantRevert(t, revertOf(t, f.c, alice, f.vester, claimFee, f.withdrawData(t, aliceCalendar, one, proof)),
		"InsufficientFunds()")
}

// TestWithdrawIntervalEdges mines bob's linear claims at the edges of his
// periods: nothing at the start, a quarter after each whole period.
func TestWithdrawIntervalEdges(t *testing.T) {
	f := newVesterFixture(t)
	proof := f.tree.proof(bobInterval)
	bob := addr(f.bob)
	one := big.NewInt(1)
	quarter := ether(300)

	// Estimated just before the start, nothing is unlocked.
	advanceTo(t, f.c, f.s.Add(-time.Second))
	wantRevert(t, revertOf(t, f.c, bob, f.vester, claimFee, f.withdrawData(t, bobInterval, one, proof)),
		"InsufficientFunds()")

	mined := 0
	claim := func(at time.Time, amount *big.Int) {
		t.Helper()
		advanceTo(t, f.c, at)
		mustOK(t, send(t, f.c, f.bob, f.vester, claimFee, f.withdrawData(t, bobInterval, amount, proof)))
		mined++
	}
	// One second before the first period ends: still nothing (a one-wei
	// claim mined then fails), and the next block ends it.
	advanceTo(t, f.c, f.s.Add(99*time.Second))
	mustFail(t, send(t, f.c, f.bob, f.vester, claimFee, f.withdrawData(t, bobInterval, one, proof)))
	// The head is at s+99; a claim estimated now sees nothing either.
	wantRevert(t, revertOf(t, f.c, bob, f.vester, claimFee, f.withdrawData(t, bobInterval, one, proof)),
		"InsufficientFunds()")

	claim(f.s.Add(100*time.Second), quarter)                                  // first period done
	claim(f.s.Add(350*time.Second), new(big.Int).Mul(quarter, big.NewInt(2))) // three periods, two new
	wantRevert(t, revertOf(t, f.c, bob, f.vester, claimFee, f.withdrawData(t, bobInterval, one, proof)),
		"InsufficientFunds()")
	claim(f.s.Add(400*time.Second), quarter) // all four
	advanceTo(t, f.c, f.s.Add(10_000*time.Second))
	wantRevert(t, revertOf(t, f.c, bob, f.vester, claimFee, f.withdrawData(t, bobInterval, one, proof)),
		"InsufficientFunds()")

	if got := f.balance(t, f.bob); got.Cmp(ether(1200)) != 0 {
		t.Errorf("bob holds %s after %d claims, want all of %s", got, mined, ether(1200))
	}
}

// TestUnlockedAtEdges evaluates schedules with the vester's view function
// at exact times, including a one-off piece of one one-second period and
// rounding per piece.
func TestUnlockedAtEdges(t *testing.T) {
	f := newVesterFixture(t)
	ctx := context.Background()
	cases := []struct {
		leaf int
		at   time.Time
		want *big.Int
	}{
		{aliceCalendar, f.t1.Add(-time.Second), big.NewInt(0)},
		{aliceCalendar, f.t1, ether(250)},
		{aliceCalendar, f.t2.Add(-time.Second), ether(250)},
		{aliceCalendar, f.t2, ether(1000)},
		{bobInterval, f.s.Add(-time.Second), big.NewInt(0)},
		{bobInterval, f.s, big.NewInt(0)},
		{bobInterval, f.s.Add(99 * time.Second), big.NewInt(0)},
		{bobInterval, f.s.Add(100 * time.Second), ether(300)},
		{bobInterval, f.s.Add(399 * time.Second), ether(900)},
		{bobInterval, f.s.Add(400 * time.Second), ether(1200)},
		{bobInterval, f.s.Add(1 << 20 * time.Second), ether(1200)},
		// Total 1,000,003 base units: 20% cliff at s, then 800000*k/3 ppm.
		{aliceInterval, f.s.Add(-time.Second), big.NewInt(0)},
		{aliceInterval, f.s, big.NewInt(200_000)},                       // floor(1000003*0.2)
		{aliceInterval, f.s.Add(30 * time.Second), big.NewInt(466_667)}, // + floor(floor(1000003*0.8)*1/3)
		{aliceInterval, f.s.Add(60 * time.Second), big.NewInt(733_334)}, // + floor(800002*2/3), per piece
		{aliceInterval, f.s.Add(89 * time.Second), big.NewInt(733_334)},
		{aliceInterval, f.s.Add(90 * time.Second), big.NewInt(1_000_003)},
		{carolZero, f.s.Add(-time.Second), big.NewInt(0)},
		{carolZero, f.s.Add(200 * time.Second), ether(10)},
	}
	for _, tc := range cases {
		got, err := f.c.Unlocked(ctx, f.vester, f.args[tc.leaf], tc.at)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(tc.want) != 0 {
			t.Errorf("leaf %d at start+%s: unlocked %s, want %s", tc.leaf, tc.at.Sub(testStart), got, tc.want)
		}
	}
}

func mustPack(t testing.TB) func([]byte, error) []byte {
	return func(data []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
}

// TestWithdrawAnyoneForTheBeneficiary: as on the production vester, anyone
// may send a withdraw, the tokens go to the allocation's beneficiary, and
// an amount of 0 takes everything vested and not yet withdrawn.
func TestWithdrawAnyoneForTheBeneficiary(t *testing.T) {
	f := newVesterFixture(t)
	proof := f.tree.proof(aliceCalendar)
	advanceTo(t, f.c, f.t1)
	aliceBefore, bobBefore := f.balance(t, f.alice), f.balance(t, f.bob)
	mustOK(t, send(t, f.c, f.bob, f.vester, claimFee, f.withdrawData(t, aliceCalendar, new(big.Int), proof)))
	if got := new(big.Int).Sub(f.balance(t, f.alice), aliceBefore); got.Cmp(ether(250)) != 0 {
		t.Errorf("alice received %s, want everything vested: %s", got, ether(250))
	}
	if got := f.balance(t, f.bob); got.Cmp(bobBefore) != 0 {
		t.Errorf("the sender's tokens went from %s to %s, want no change", bobBefore, got)
	}
	if got := f.withdrawn(t, "alloc-alice-calendar"); got.Cmp(ether(250)) != 0 {
		t.Errorf("schedules().withdrawn = %s, want %s", got, ether(250))
	}
	wantRevert(t, revertOf(t, f.c, addr(f.bob), f.vester, claimFee, f.withdrawData(t, aliceCalendar, big.NewInt(1), proof)),
		"InsufficientFunds()")
}

// TestWithdrawPeriodLengthZero: the vester divides by zero on a piece with
// periods of length 0 from its start until the schedule's end, then pays
// the whole total (what vesting.Schedule.Unclaimable predicts).
func TestWithdrawPeriodLengthZero(t *testing.T) {
	f := newVesterFixture(t)
	carol := addr(f.carol)
	proof := f.tree.proof(carolZero)
	advanceTo(t, f.c, f.s.Add(150*time.Second))
	wantRevert(t, revertOf(t, f.c, carol, f.vester, claimFee, f.withdrawData(t, carolZero, new(big.Int), proof)),
		"Panic(code: 0x12 division by zero)")
	advanceTo(t, f.c, f.s.Add(200*time.Second))
	before := f.balance(t, f.carol)
	mustOK(t, send(t, f.c, f.carol, f.vester, claimFee, f.withdrawData(t, carolZero, new(big.Int), proof)))
	if got := new(big.Int).Sub(f.balance(t, f.carol), before); got.Cmp(ether(10)) != 0 {
		t.Errorf("carol received %s at the end, want all of %s", got, ether(10))
	}
}

// TestClaimFeeOnce: a vester made to ask the fee once asks it on an
// allocation's first withdraw only, and then wants exactly 0; another
// allocation still pays.
func TestClaimFeeOnce(t *testing.T) {
	f := newVesterFixture(t)
	ctx := context.Background()
	var vester common.Address
	err := f.c.Transact(ctx, func(b *Batch) {
		vester = b.DeployVesterFeeOnce(f.token, claimFee)
		b.AddRoot(vester, f.tree.root())
		b.Mint(f.token, f.c.Deployer(), ether(2_000))
		b.Fund(vester, ether(2_000))
	})
	if err != nil {
		t.Fatal(err)
	}
	alice := addr(f.alice)
	proof := f.tree.proof(aliceCalendar)
	data := f.withdrawData(t, aliceCalendar, ether(1), proof)
	advanceTo(t, f.c, f.t1)
	if got := mustBig(t)(f.c.ClaimFeeOf(ctx, vester, "alloc-alice-calendar")); got.Cmp(claimFee) != 0 {
		t.Fatalf("fee before the first claim = %s, want %s", got, claimFee)
	}
	mustOK(t, send(t, f.c, f.alice, vester, claimFee, data))
	if got := mustBig(t)(f.c.ClaimFeeOf(ctx, vester, "alloc-alice-calendar")); got.Sign() != 0 {
		t.Errorf("fee after the first claim = %s, want 0", got)
	}
	wantRevert(t, revertOf(t, f.c, alice, vester, claimFee, data), "InvalidFeeFundsSent()")
	mustOK(t, send(t, f.c, f.alice, vester, nil, data))
	if got := mustBig(t)(f.c.ClaimFeeOf(ctx, vester, "alloc-carol")); got.Cmp(claimFee) != 0 {
		t.Errorf("another allocation's fee = %s, want %s", got, claimFee)
	}
	// The fixture's vester asks the fee every time.
	mustOK(t, send(t, f.c, f.alice, f.vester, claimFee, data))
	if got := mustBig(t)(f.c.ClaimFeeOf(ctx, f.vester, "alloc-alice-calendar")); got.Cmp(claimFee) != 0 {
		t.Errorf("fee on a vester that asks every time = %s, want %s", got, claimFee)
	}
}

package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// TestUnlockedMatchesWallet is a differential test of the vesting math
// (docs/deployment.md D16): the vester on the EVM and wallet/vesting in Go must
// agree to the wei on 200 random schedules, calendar and interval, odd
// ones included (unordered unlocks, percents over 100%, empty pieces,
// periods of length zero, totals up to 2^256-1), at random times and at
// every schedule edge; where Go says the vester cannot compute an amount,
// the vester must revert with the matching Panic. It also checks that this
// package's test encoding of the leaf is byte for byte the wallet's.
func TestUnlockedMatchesWallet(t *testing.T) {
	f := newVesterFixture(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(4, 2))
	base := uint32(testStart.Unix())
	maxUint256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

	reverts := 0
	for i := range 200 {
		args := randomArgs(rng, base, maxUint256)
		data, err := vesting.Encode(args)
		if err != nil {
			t.Fatal(err)
		}
		if ours := testEncode(t, args); string(ours) != string(data) {
			t.Fatalf("case %d: the test's leaf encoding differs from wallet/vesting's", i)
		}
		times := []int64{0, int64(base) - 5000, int64(base) + rng.Int64N(5000), 1 << 40}
		for _, ts := range args.Schedule.UnlockTimestamps {
			times = append(times, int64(ts)-1, int64(ts))
		}
		for _, p := range args.Schedule.Pieces {
			for _, k := range []int64{0, 1, 2, int64(p.NumberOfPeriods)} {
				edge := int64(p.StartDate) + k*int64(p.PeriodLength)
				times = append(times, edge-1, edge)
			}
		}
		for _, ts := range times {
			if ts < 0 {
				continue
			}
			at := time.Unix(ts, 0)
			got, err := f.c.Unlocked(ctx, f.vester, data, at)
			if code, ok := productionPanic(args, ts); ok {
				reverts++
				wantPanic(t, err, big.NewInt(code), fmt.Sprintf("case %d (%+v) at %d", i, args.Schedule, ts))
				continue
			}
			want, werr := args.Vested(at)
			if werr != nil {
				reverts++
				code := big.NewInt(0x11)
				if errors.Is(werr, vesting.ErrDivisionByZero) {
					code = big.NewInt(0x12)
				}
				wantPanic(t, err, code, fmt.Sprintf("case %d (%+v) at %d", i, args.Schedule, ts))
				continue
			}
			if err != nil {
				t.Fatalf("case %d (%+v) at %d: %v", i, args.Schedule, ts, err)
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("case %d (%+v) at %d: vester vested %s, wallet %s", i, args.Schedule, ts, got, want)
			}
		}
	}
	if reverts == 0 {
		t.Error("no case made the vester revert: the generator lost its odd schedules")
	}
}

// productionPanic tells where the production vester panics and
// wallet/vesting (as of this test) computes an amount: an interval
// schedule without pieces (the last piece's index underflows), a last
// piece ending after 2^32-1 (its end is computed in 32 bits), and a
// calendar unlock reached without a percent (an out-of-bounds read).
func productionPanic(a vesting.Args, t int64) (code int64, ok bool) {
	s := a.Schedule
	switch s.Kind {
	case vesting.Interval:
		if len(s.Pieces) == 0 {
			return 0x11, true
		}
		last := s.Pieces[len(s.Pieces)-1]
		if uint64(last.StartDate)+uint64(last.PeriodLength)*uint64(last.NumberOfPeriods) > 1<<32-1 {
			return 0x11, true
		}
	case vesting.Calendar:
		for i, ts := range s.UnlockTimestamps {
			if int64(ts) > t {
				break
			}
			if i >= len(s.UnlockPercents) {
				return 0x32, true
			}
		}
	}
	return 0, false
}

// wantPanic checks that err is a revert with Solidity's Panic(code).
func wantPanic(t testing.TB, err error, code *big.Int, what string) {
	t.Helper()
	data, ok := RevertData(err)
	if !ok {
		t.Fatalf("%s: %v, want a revert with Panic(%#x)", what, err, code)
	}
	r, err := DecodeRevert(data)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if r.Name != "Panic" || len(r.Params) != 1 || r.Params[0].Value.(*big.Int).Cmp(code) != 0 {
		t.Fatalf("%s: reverted with %s, want Panic(%#x)", what, r.Error(), code)
	}
}

func randomArgs(rng *rand.Rand, base uint32, maxUint256 *big.Int) vesting.Args {
	// Realistic totals have 18 decimals that percents do not divide.
	odd := new(big.Int).Add(ether(rng.Int64N(1_000_000)), big.NewInt(rng.Int64N(1e18)))
	totals := []*big.Int{big.NewInt(0), big.NewInt(rng.Int64N(1_000_000_007)), odd, odd, maxUint256}
	a := vesting.Args{Allocation: vesting.Allocation{
		ID:                  "alloc-random",
		OriginalBeneficiary: common.Address{0xaa},
		TotalAllocation:     totals[rng.IntN(len(totals))],
		Revokable:           rng.IntN(2) == 0,
	}}
	near := func() uint32 { return base + uint32(rng.IntN(2000)) }
	// Half the schedules add up to exactly 100%, in random parts.
	exact := rng.IntN(2) == 0
	parts := func(count int) []int64 {
		out := make([]int64, count)
		left := int64(vesting.PercentScale)
		for j := range out {
			if j == count-1 {
				out[j] = left
				break
			}
			out[j] = rng.Int64N(left + 1)
			left -= out[j]
		}
		return out
	}
	if rng.IntN(2) == 0 {
		a.Schedule = vesting.Schedule{Kind: vesting.Calendar, UnlockScheduleID: "S-RANDOM"}
		count := rng.IntN(5)
		shares := parts(max(count, 1))
		var times []uint32
		for range count {
			times = append(times, near())
		}
		if rng.IntN(4) != 0 {
			slices.Sort(times) // mostly ascending, as schedules are
		}
		for j := range count {
			percent := big.NewInt(rng.Int64N(400_001))
			switch {
			case exact:
				percent = big.NewInt(shares[j])
			case rng.IntN(10) == 0:
				percent = new(big.Int).Lsh(big.NewInt(1), uint(rng.IntN(256))) // sometimes past 100%, or 2^255
			}
			a.Schedule.UnlockTimestamps = append(a.Schedule.UnlockTimestamps, times[j])
			a.Schedule.UnlockPercents = append(a.Schedule.UnlockPercents, percent)
		}
		return a
	}
	a.Schedule = vesting.Schedule{Kind: vesting.Interval, UnlockScheduleID: "S-RANDOM"}
	lengths := []uint32{0, 1, 7, 30, 100, 100, 1 << 31}
	periods := []uint32{0, 1, 2, 3, 12, 12, 1<<32 - 1}
	count := rng.IntN(4)
	shares := parts(max(count, 1))
	for j := range count {
		percent := uint32(rng.IntN(600_001))
		switch {
		case exact:
			percent = uint32(shares[j])
		case rng.IntN(10) == 0:
			percent = rng.Uint32()
		}
		a.Schedule.Pieces = append(a.Schedule.Pieces, vesting.Piece{
			StartDate:       near(),
			PeriodLength:    lengths[rng.IntN(len(lengths))],
			NumberOfPeriods: periods[rng.IntN(len(periods))],
			Percent:         percent,
		})
	}
	return a
}

// testEncode encodes a with this package's test encoders.
func testEncode(t testing.TB, a vesting.Args) []byte {
	alloc := testAllocation{
		Id:                        a.Allocation.ID,
		OriginalBeneficiary:       a.Allocation.OriginalBeneficiary,
		TotalAllocation:           a.Allocation.TotalAllocation,
		Cancelable:                a.Allocation.Cancelable,
		Revokable:                 a.Allocation.Revokable,
		TransferableByAdmin:       a.Allocation.TransferableByAdmin,
		TransferableByBeneficiary: a.Allocation.TransferableByBeneficiary,
	}
	if a.Schedule.Kind == vesting.Calendar {
		return encodeCalendar(t, alloc, testCalendar{a.Schedule.UnlockScheduleID, a.Schedule.UnlockTimestamps, a.Schedule.UnlockPercents})
	}
	pieces := make([]testPiece, len(a.Schedule.Pieces))
	for i, p := range a.Schedule.Pieces {
		pieces[i] = testPiece(p)
	}
	return encodeInterval(t, alloc, testInterval{a.Schedule.UnlockScheduleID, pieces})
}

// TestUnlockedRefusesMalformedLeaves: a leaf of an unknown allocation type
// is refused by production's error, and a calendar with fewer percents than
// timestamps by production's out-of-bounds Panic.
func TestUnlockedRefusesMalformedLeaves(t *testing.T) {
	f := newVesterFixture(t)
	alloc := testAllocation{Id: "x", TotalAllocation: big.NewInt(1)}
	unknown, err := intervalArguments(t).Pack("cliff\x1b[2J", alloc, testInterval{UnlockScheduleId: "S"})
	if err != nil {
		t.Fatal(err)
	}
	mismatched := encodeCalendar(t, alloc, testCalendar{UnlockTimestamps: []uint32{1, 2}, UnlockPercents: []*big.Int{big.NewInt(5)}})
	for _, tc := range []struct {
		name string
		args []byte
		want string
	}{
		// The type string comes from the leaf: the decoded line is sanitized.
		{"unknown type", unknown, "InvalidAllocationType()"},
		// As in production, the missing percent is read out of bounds.
		{"length mismatch", mismatched, "Panic(code: 0x32 array index out of bounds)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.c.Unlocked(context.Background(), f.vester, tc.args, testStart)
			data, ok := RevertData(err)
			if !ok {
				t.Fatalf("Unlocked: %v, want a revert with data", err)
			}
			r, err := DecodeRevert(data)
			if err != nil {
				t.Fatal(err)
			}
			wantRevert(t, r, tc.want)
		})
	}
}

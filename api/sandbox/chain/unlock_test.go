package chain

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// TestUnlockedMatchesWallet is a differential test of the unlock math: the
// vester on the EVM and wallet/vesting in Go must agree to the unit on
// random schedules, odd ones included (percents over 100%, empty pieces,
// periods of length zero, totals up to 2^256-1), at random times and at
// every schedule edge. It also checks that this package's test encoding of
// the leaf is byte for byte the wallet's.
func TestUnlockedMatchesWallet(t *testing.T) {
	f := newVesterFixture(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(4, 2))
	base := uint32(testStart.Unix())
	maxUint256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

	for i := range 120 {
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
			for k := range int64(3) {
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
			if err != nil {
				t.Fatalf("case %d at %d: %v", i, ts, err)
			}
			if want := args.Unlocked(at); got.Cmp(want) != 0 {
				t.Fatalf("case %d (%+v) at %d: vester unlocked %s, wallet %s", i, args.Schedule, ts, got, want)
			}
		}
	}
}

func randomArgs(rng *rand.Rand, base uint32, maxUint256 *big.Int) vesting.Args {
	totals := []*big.Int{big.NewInt(0), big.NewInt(rng.Int64N(1_000_000_007)), ether(rng.Int64N(1_000_000)), maxUint256}
	a := vesting.Args{Allocation: vesting.Allocation{
		ID:                  "alloc-random",
		OriginalBeneficiary: common.Address{0xaa},
		TotalAllocation:     totals[rng.IntN(len(totals))],
		Revokable:           rng.IntN(2) == 0,
	}}
	near := func() uint32 { return base + uint32(rng.IntN(2000)) }
	if rng.IntN(2) == 0 {
		a.Schedule = vesting.Schedule{Kind: vesting.Calendar, UnlockScheduleID: "S-RANDOM"}
		for range rng.IntN(5) {
			percent := big.NewInt(rng.Int64N(400_001))
			if rng.IntN(10) == 0 {
				percent = new(big.Int).Lsh(big.NewInt(1), uint(rng.IntN(250))) // sometimes past 100%
			}
			a.Schedule.UnlockTimestamps = append(a.Schedule.UnlockTimestamps, near())
			a.Schedule.UnlockPercents = append(a.Schedule.UnlockPercents, percent)
		}
		return a
	}
	a.Schedule = vesting.Schedule{Kind: vesting.Interval, UnlockScheduleID: "S-RANDOM"}
	lengths := []uint32{0, 1, 7, 30, 100, 1 << 31}
	periods := []uint32{0, 1, 2, 3, 12, 1<<32 - 1}
	for range rng.IntN(4) {
		percent := uint32(rng.IntN(600_001))
		if rng.IntN(10) == 0 {
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

// TestUnlockedRefusesMalformedLeaves: a leaf of an unknown allocation type,
// or a calendar whose lists differ in length, is refused by name.
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
		{"unknown type", unknown, `UnknownAllocationType(allocationType: "cliff^[[2J")`},
		{"length mismatch", mismatched, "ScheduleLengthMismatch(timestamps: 2, percents: 1)"},
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

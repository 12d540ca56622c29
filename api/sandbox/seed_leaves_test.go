package sandbox

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// TestEncodeArgs holds encodeArgs to vesting.Encode, byte for byte: every
// seeded allocation, and shapes the seed does not make.
func TestEncodeArgs(t *testing.T) {
	cases := []vesting.Args{}
	for _, a := range sharedWorld().Allocations {
		cases = append(cases, a.Args)
	}
	odd := vesting.Allocation{ID: strings.Repeat("x", 65), OriginalBeneficiary: common.HexToAddress("0xdead"), TotalAllocation: new(big.Int).Lsh(big.NewInt(1), 255), Revokable: true}
	cases = append(cases,
		vesting.Args{Allocation: odd, Schedule: vesting.Schedule{Kind: vesting.Calendar}},
		vesting.Args{Allocation: vesting.Allocation{TotalAllocation: new(big.Int)}, Schedule: vesting.Schedule{Kind: vesting.Interval, UnlockScheduleID: strings.Repeat("s", 32)}},
		vesting.Args{Allocation: odd, Schedule: vesting.Schedule{Kind: vesting.Interval, Pieces: []vesting.Piece{{StartDate: 1, PeriodLength: 2, NumberOfPeriods: 3, Percent: 4}, {StartDate: ^uint32(0), NumberOfPeriods: 1, Percent: 1_000_000}}}},
		vesting.Args{Allocation: odd, Schedule: vesting.Schedule{Kind: vesting.Calendar, UnlockScheduleID: "c", UnlockTimestamps: []uint32{7}, UnlockPercents: []*big.Int{big.NewInt(1_000_000)}}},
	)
	for i, args := range cases {
		want, err := vesting.Encode(args)
		if err != nil {
			t.Fatalf("case %d: vesting.Encode: %v", i, err)
		}
		got, err := encodeArgs(args)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("case %d (%s): encodeArgs differs from vesting.Encode (%v):\n%x\n%x", i, args.Allocation.ID, err, got, want)
		}
	}
	for _, bad := range []vesting.Args{
		{Allocation: vesting.Allocation{}, Schedule: vesting.Schedule{Kind: vesting.Calendar}},
		{Allocation: vesting.Allocation{TotalAllocation: big.NewInt(-1)}, Schedule: vesting.Schedule{Kind: vesting.Calendar}},
		{Allocation: vesting.Allocation{TotalAllocation: new(big.Int).Lsh(big.NewInt(1), 256)}, Schedule: vesting.Schedule{Kind: vesting.Calendar}},
		{Allocation: odd, Schedule: vesting.Schedule{Kind: "linear"}},
		{Allocation: odd, Schedule: vesting.Schedule{Kind: vesting.Calendar, UnlockTimestamps: []uint32{1}}},
		{Allocation: odd, Schedule: vesting.Schedule{Kind: vesting.Calendar, UnlockTimestamps: []uint32{1}, UnlockPercents: []*big.Int{nil}}},
	} {
		if _, err := encodeArgs(bad); err == nil {
			t.Errorf("encodeArgs took %+v", bad)
		}
	}
}

func BenchmarkEncodeArgs(b *testing.B) {
	args := sharedWorld().Allocations[0].Args
	b.Run("encodeArgs", func(b *testing.B) {
		for b.Loop() {
			encodeArgs(args)
		}
	})
	b.Run("vesting.Encode", func(b *testing.B) {
		for b.Loop() {
			vesting.Encode(args)
		}
	})
}

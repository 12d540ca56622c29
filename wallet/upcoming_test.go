package wallet

import (
	"math/big"
	"testing"
	"time"

	"allot/wallet/vesting"
)

// The unlocks ahead stop where the vester stops counting: a cancelled
// allocation at its cancel time, a revoked one at once.
func TestUpcomingCappedByState(t *testing.T) {
	const day = 86400
	t0 := int64(1_800_000_000)
	args := vesting.Args{Allocation: vesting.Allocation{TotalAllocation: big.NewInt(400)}, Schedule: vesting.Schedule{Kind: vesting.Interval,
		Pieces: []vesting.Piece{{StartDate: uint32(t0), PeriodLength: day, NumberOfPeriods: 4, Percent: 1_000_000}}}}
	after, until := time.Unix(t0, 0), time.Unix(t0+10*day, 0)
	standing := func(terminated int64) *Standing {
		return &Standing{TerminatedTimestamp: uint32(terminated), Withdrawn: new(big.Int), VesterBalance: big.NewInt(400)}
	}
	for _, tc := range []struct {
		name string
		s    *Standing
		want int
	}{
		{"record not read", nil, 4},
		{"active", standing(0), 4},
		{"cancelled after two periods", standing(t0 + 2*day), 2},
		{"cancelled mid-period", standing(t0 + 2*day + 5), 2},
		{"revoked", standing(1), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Upcoming(args, tc.s, after, until, 0)
			if len(got) != tc.want {
				t.Fatalf("%d unlocks, want %d: %v", len(got), tc.want, got)
			}
			for i, u := range got {
				if u.Amount.Int64() != 100 || u.At.Unix() != t0+int64(i+1)*day {
					t.Errorf("unlock %d: %s at %d", i, u.Amount, u.At.Unix())
				}
			}
		})
	}
	if u, ok := NextUnlock(args, standing(0), time.Unix(t0+day, 0), 30*24*time.Hour); !ok || u.At.Unix() != t0+2*day {
		t.Errorf("next unlock after the first period: %v %v", u, ok)
	}
	if _, ok := NextUnlock(args, standing(0), time.Unix(t0, 0), time.Hour); ok {
		t.Error("a next unlock within an hour of a daily schedule's start")
	}
}

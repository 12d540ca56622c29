package vesting

import (
	"fmt"
	"math/big"
	"testing"
	"time"
)

func unlocksText(us []Unlock) string {
	s := ""
	for _, u := range us {
		s += fmt.Sprintf("%d %d %s %s; ", u.At.Unix(), u.PPM, u.Amount, u.Vested)
	}
	return s
}

func TestUnlocksExactPerStep(t *testing.T) {
	const day = 86400
	t0 := int64(1_800_000_000)
	calendar := Args{Allocation: Allocation{TotalAllocation: big.NewInt(1001)}, Schedule: Schedule{Kind: Calendar,
		UnlockTimestamps: []uint32{uint32(t0), uint32(t0 + day), uint32(t0 + 2*day), uint32(t0 + 3*day)},
		UnlockPercents:   []*big.Int{big.NewInt(250_000), big.NewInt(0), big.NewInt(250_000), big.NewInt(500_000)}}}
	interval := Args{Allocation: Allocation{TotalAllocation: big.NewInt(10)}, Schedule: Schedule{Kind: Interval,
		Pieces: []Piece{{StartDate: uint32(t0), PeriodLength: day, NumberOfPeriods: 3, Percent: 1_000_000}}}}
	// A step every second for ten years: only the window's are walked,
	// and no more than the limit.
	seconds := Args{Allocation: Allocation{TotalAllocation: big.NewInt(1e18)}, Schedule: Schedule{Kind: Interval,
		Pieces: []Piece{{StartDate: uint32(t0), PeriodLength: 1, NumberOfPeriods: 10 * 365 * day, Percent: 1_000_000}}}}
	at := func(s int64) time.Time { return time.Unix(s, 0) }
	for _, tc := range []struct {
		name        string
		args        Args
		after, till int64
		limit       int
		want        string
	}{
		// 1001*25% is 250.25: 250 wei; the 0% entry unlocks nothing; the
		// last takes the rest, 501.
		{"calendar", calendar, t0 - 1, t0 + 10*day, 0, fmt.Sprintf("%d 250000 250 250; %d 250000 250 500; %d 500000 501 1001; ", t0, t0+2*day, t0+3*day)},
		{"calendar window: after excluded, until included", calendar, t0, t0 + 2*day, 0, fmt.Sprintf("%d 250000 250 500; ", t0+2*day)},
		// 10 wei in thirds: 3, 6, then the end pays the whole 10.
		{"interval", interval, t0 - 1, t0 + 3*day, 0, fmt.Sprintf("%d 333333 3 3; %d 333333 3 6; %d 333334 4 10; ", t0+day, t0+2*day, t0+3*day)},
		{"interval from mid-period", interval, t0 + day + 5, t0 + 9*day, 0, fmt.Sprintf("%d 333333 3 6; %d 333334 4 10; ", t0+2*day, t0+3*day)},
		{"nothing after the end", interval, t0 + 3*day, t0 + 9*day, 0, ""},
		{"a window far into a long schedule", seconds, t0 + 5*365*day, t0 + 5*365*day + 100, 2,
			fmt.Sprintf("%d 0 3170979198 500000003170979198; %d 0 3170979198 500000006341958396; ", t0+5*365*day+1, t0+5*365*day+2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := unlocksText(tc.args.Unlocks(at(tc.after), at(tc.till), tc.limit)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// A piece the vester divides by zero on unlocks nothing until the
// schedule's end, which pays the rest at once.
func TestUnlocksOfAnUnclaimableSchedule(t *testing.T) {
	t0 := int64(1_800_000_000)
	a := Args{Allocation: Allocation{TotalAllocation: big.NewInt(100)}, Schedule: Schedule{Kind: Interval, Pieces: []Piece{
		{StartDate: uint32(t0), PeriodLength: 10, NumberOfPeriods: 2, Percent: 500_000},
		{StartDate: uint32(t0 + 100), PeriodLength: 0, NumberOfPeriods: 1, Percent: 0},
		{StartDate: uint32(t0 + 200), PeriodLength: 100, NumberOfPeriods: 1, Percent: 500_000},
	}}}
	got := unlocksText(a.Unlocks(time.Unix(t0-1, 0), time.Unix(t0+1000, 0), 0))
	want := fmt.Sprintf("%d 250000 25 25; %d 250000 25 50; %d 500000 50 100; ", t0+10, t0+20, t0+300)
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

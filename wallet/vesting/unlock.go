package vesting

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"time"
)

// UnlockedPPM returns the millionths of the allocation that s has unlocked at
// t, capped at PercentScale. It mirrors the vester contract: calendar unlocks
// count once their timestamp is reached (inclusive); an interval piece
// contributes percent*k/numberOfPeriods (integer division, per piece) after k
// whole periods.
func (s Schedule) UnlockedPPM(t time.Time) uint64 {
	now := t.Unix()
	var ppm uint64
	switch s.Kind {
	case Calendar:
		for i, ts := range s.UnlockTimestamps {
			if int64(ts) <= now && i < len(s.UnlockPercents) && s.UnlockPercents[i] != nil {
				p := s.UnlockPercents[i]
				if !p.IsUint64() || p.Uint64() > PercentScale {
					return PercentScale
				}
				ppm += p.Uint64()
			}
		}
	case Interval:
		for _, p := range s.Pieces {
			ppm += p.unlockedPPM(now)
		}
	}
	return min(ppm, PercentScale)
}

func (p Piece) unlockedPPM(now int64) uint64 {
	if now < int64(p.StartDate) || p.NumberOfPeriods == 0 {
		return 0
	}
	if p.PeriodLength == 0 {
		if p.NumberOfPeriods == 1 {
			return uint64(p.Percent)
		}
		return 0
	}
	k := min(uint64(now-int64(p.StartDate))/uint64(p.PeriodLength), uint64(p.NumberOfPeriods))
	return uint64(p.Percent) * k / uint64(p.NumberOfPeriods)
}

// Unlocked returns the amount of the allocation unlocked at t, rounded down.
func (a Args) Unlocked(t time.Time) *big.Int {
	return UnlockedAmount(a.Allocation.TotalAllocation, a.Schedule.UnlockedPPM(t))
}

// UnlockedAmount is total*ppm/PercentScale, rounded down.
func UnlockedAmount(total *big.Int, ppm uint64) *big.Int {
	if total == nil {
		return new(big.Int)
	}
	out := new(big.Int).Mul(total, new(big.Int).SetUint64(ppm))
	return out.Quo(out, big.NewInt(PercentScale))
}

// Point is one step of an unlock timeline: from At on, PPM millionths are
// unlocked.
type Point struct {
	At  time.Time
	PPM uint64
}

// MaxTimelinePoints bounds Timeline. A schedule of ten years of daily
// unlocks fits; a leaf claiming four billion periods is thinned out.
const MaxTimelinePoints = 4096

// Timeline returns every time the unlocked amount changes, in order, with
// the total unlocked from then on. A chart draws it as steps. When a schedule
// has more steps than MaxTimelinePoints, the timeline keeps evenly spaced
// ones and always the last, so the chart's shape and end stay right.
func (s Schedule) Timeline() []Point {
	var times []int64
	switch s.Kind {
	case Calendar:
		for _, ts := range s.UnlockTimestamps {
			times = append(times, int64(ts))
		}
	case Interval:
		for _, p := range s.Pieces {
			times = append(times, p.stepTimes()...)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	points := make([]Point, 0, min(len(times), MaxTimelinePoints))
	var last uint64
	for i, ts := range times {
		if i > 0 && ts == times[i-1] {
			continue
		}
		at := time.Unix(ts, 0).UTC()
		ppm := s.UnlockedPPM(at)
		if ppm == last && len(points) > 0 {
			continue
		}
		points = append(points, Point{At: at, PPM: ppm})
		last = ppm
	}
	return thin(points, MaxTimelinePoints)
}

// stepTimes lists when a piece's unlocked amount can change, at most
// MaxTimelinePoints of them evenly spread over its periods.
func (p Piece) stepTimes() []int64 {
	if p.NumberOfPeriods == 0 {
		return nil
	}
	if p.PeriodLength == 0 {
		return []int64{int64(p.StartDate)}
	}
	n := uint64(p.NumberOfPeriods)
	step := max(1, n/MaxTimelinePoints)
	var out []int64
	for k := step; k <= n; k += step {
		out = append(out, int64(p.StartDate)+int64(k)*int64(p.PeriodLength))
	}
	if n%step != 0 {
		out = append(out, int64(p.StartDate)+int64(n)*int64(p.PeriodLength))
	}
	return out
}

func thin(points []Point, limit int) []Point {
	if len(points) <= limit {
		return points
	}
	out := make([]Point, 0, limit)
	for i := range limit - 1 {
		out = append(out, points[i*(len(points)-1)/(limit-1)])
	}
	return append(out, points[len(points)-1])
}

// Validate reports what makes s unusable as a schedule: percents that do not
// add up to 100%, calendar timestamps out of order, or empty pieces. A leaf
// may still decode and verify with such a schedule; support staff need to
// see why its numbers look wrong.
func (s Schedule) Validate() error {
	var errs []error
	var sum uint64
	switch s.Kind {
	case Calendar:
		if len(s.UnlockTimestamps) == 0 {
			errs = append(errs, errors.New("calendar schedule has no unlocks"))
		}
		for i, ts := range s.UnlockTimestamps {
			if i > 0 && ts < s.UnlockTimestamps[i-1] {
				errs = append(errs, fmt.Errorf("unlock %d is earlier than unlock %d", i, i-1))
			}
		}
		for i, p := range s.UnlockPercents {
			if p == nil || !p.IsUint64() || p.Uint64() > PercentScale {
				errs = append(errs, fmt.Errorf("unlock %d: percent out of range", i))
				continue
			}
			sum += p.Uint64()
		}
	case Interval:
		if len(s.Pieces) == 0 {
			errs = append(errs, errors.New("interval schedule has no pieces"))
		}
		for i, p := range s.Pieces {
			if p.NumberOfPeriods == 0 {
				errs = append(errs, fmt.Errorf("piece %d has no periods", i))
			}
			if p.PeriodLength == 0 && p.NumberOfPeriods > 1 {
				errs = append(errs, fmt.Errorf("piece %d has %d periods of length 0", i, p.NumberOfPeriods))
			}
			sum += uint64(p.Percent)
		}
	default:
		errs = append(errs, fmt.Errorf("unknown schedule kind %q", s.Kind))
	}
	if sum != PercentScale && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("percents add up to %s%%, not 100%%", FormatPPM(sum)))
	}
	return errors.Join(errs...)
}

// FormatPPM writes millionths as a percentage with up to four decimals,
// exactly: 333333 -> "33.3333".
func FormatPPM(ppm uint64) string {
	whole, frac := ppm/10_000, ppm%10_000
	if frac == 0 {
		return fmt.Sprintf("%d", whole)
	}
	s := fmt.Sprintf("%d.%04d", whole, frac)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return s
}

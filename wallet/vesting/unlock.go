package vesting

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"time"
)

// The production vester's arithmetic is Solidity's: checked, in 256 bits.
// When it cannot compute a vested amount, its withdraw reverts with a
// Panic; Vested says so with one of these errors instead of an amount.
var (
	// ErrDivisionByZero: a started piece has periods of length 0 or no
	// periods (Panic 0x12).
	ErrDivisionByZero = errors.New("a piece has periods of length 0 or no periods, and the vester divides by zero")
	// ErrOverflow: an intermediate amount or percent sum does not fit in
	// 256 bits (Panic 0x11).
	ErrOverflow = errors.New("the vester's arithmetic overflows 256 bits")
)

// UnclaimableError is Vested's error: the production vester reverts when
// asked what the allocation has vested at At, until Until (the end of the
// schedule's last piece), or for ever when Until is zero.
type UnclaimableError struct {
	At, Until time.Time
	Err       error // ErrDivisionByZero or ErrOverflow
}

func (e *UnclaimableError) Error() string {
	if e.Until.IsZero() {
		return fmt.Sprintf("this schedule cannot be claimed on the production vester: %v", e.Err)
	}
	return fmt.Sprintf("this schedule cannot be claimed on the production vester until %s: %v",
		e.Until.UTC().Format("2006-01-02 15:04:05 UTC"), e.Err)
}

func (e *UnclaimableError) Unwrap() error { return e.Err }

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// Vested returns what the production vester (docs/deployment.md D16) says the
// allocation has vested at t, to the wei, before withdrawals:
//
//   - calendar: min(total, total*P/1e6 rounded down), P the sum of
//     UnlockPercents[i] with UnlockTimestamps[i] <= t, stopping at the
//     first later timestamp;
//   - interval: total once t reaches the end of the LAST piece
//     (startDate + periodLength*numberOfPeriods); before that,
//     min(total, sum over the pieces of (total*percent/1e6 rounded down)*k/n
//     rounded down), n the piece's numberOfPeriods and k = 0 before its
//     startDate, else min(n, whole periods since startDate).
//
// t is the block time, or the cancellation time of a cancelled allocation
// (vesting stops there): pass the earlier of the two. When the vester
// would revert instead, the error is an *UnclaimableError.
func (a Args) Vested(t time.Time) (*big.Int, error) {
	total := a.Allocation.TotalAllocation
	if total == nil {
		total = new(big.Int)
	}
	var (
		out *big.Int
		err error
	)
	switch a.Schedule.Kind {
	case Calendar:
		out, err = a.Schedule.calendarVested(total, t.Unix())
	case Interval:
		out, err = a.Schedule.intervalVested(total, t.Unix())
	default:
		return new(big.Int), nil
	}
	if err != nil {
		until, _ := a.Schedule.end()
		return nil, &UnclaimableError{At: t, Until: until, Err: err}
	}
	if out.Cmp(total) > 0 {
		out.Set(total)
	}
	return out, nil
}

// Unlocked returns Vested(t), or zero when the production vester cannot
// pay anything out at t (it reverts): what a claim can take, never more.
func (a Args) Unlocked(t time.Time) *big.Int {
	out, err := a.Vested(t)
	if err != nil {
		return new(big.Int)
	}
	return out
}

// Unclaimable reports whether the production vester divides by zero for s
// at t, and until when: from the start of a piece with periods of length 0
// (or no periods) until the end of the schedule's last piece, from which
// on it pays the full total without dividing. A client shows such a leaf
// with a warning, never with an unlocked amount. Calendar schedules never
// divide.
func (s Schedule) Unclaimable(t time.Time) (until time.Time, blocked bool) {
	if s.Kind != Interval {
		return time.Time{}, false
	}
	end, ok := s.end()
	now := t.Unix()
	if !ok || now >= end.Unix() {
		return time.Time{}, false
	}
	for _, p := range s.Pieces {
		if now >= int64(p.StartDate) && (p.PeriodLength == 0 || p.NumberOfPeriods == 0) {
			return end, true
		}
	}
	return time.Time{}, false
}

// maxEnd caps the end of a schedule as a time: about 34,800 years from
// 1970, which prints as a date and is "never" all the same.
const maxEnd = 1 << 40

// end is when an interval schedule's last piece ends: the vester pays the
// full total from then on. ok is false for other schedules.
func (s Schedule) end() (at time.Time, ok bool) {
	if s.Kind != Interval || len(s.Pieces) == 0 {
		return time.Time{}, false
	}
	return time.Unix(int64(min(s.Pieces[len(s.Pieces)-1].end(), maxEnd)), 0).UTC(), true
}

// end is startDate + periodLength*numberOfPeriods, exact: at most 2^64-2^32.
func (p Piece) end() uint64 {
	return uint64(p.StartDate) + uint64(p.PeriodLength)*uint64(p.NumberOfPeriods)
}

func (s Schedule) calendarVested(total *big.Int, now int64) (*big.Int, error) {
	sum := new(big.Int)
	for i, ts := range s.UnlockTimestamps {
		if int64(ts) > now {
			break // timestamps ascend: the vester stops at the first later one
		}
		if i < len(s.UnlockPercents) && s.UnlockPercents[i] != nil {
			sum.Add(sum, s.UnlockPercents[i])
		}
		if sum.Cmp(maxUint256) > 0 {
			return nil, ErrOverflow
		}
	}
	return mulDiv(total, sum, big.NewInt(PercentScale))
}

func (s Schedule) intervalVested(total *big.Int, now int64) (*big.Int, error) {
	if len(s.Pieces) == 0 {
		return new(big.Int), nil
	}
	if now >= 0 && uint64(now) >= s.Pieces[len(s.Pieces)-1].end() {
		return new(big.Int).Set(total), nil
	}
	sum := new(big.Int)
	for _, p := range s.Pieces {
		if now < int64(p.StartDate) {
			continue // k = 0, and the vester divides nothing
		}
		// In the vester's order of operations, so that it fails where the
		// vester does.
		if p.PeriodLength == 0 {
			return nil, ErrDivisionByZero
		}
		n := uint64(p.NumberOfPeriods)
		k := min(n, uint64(now-int64(p.StartDate))/uint64(p.PeriodLength))
		share, err := mulDiv(total, big.NewInt(int64(p.Percent)), big.NewInt(PercentScale))
		if err != nil {
			return nil, err
		}
		share.Mul(share, new(big.Int).SetUint64(k))
		if share.Cmp(maxUint256) > 0 {
			return nil, ErrOverflow
		}
		if n == 0 {
			return nil, ErrDivisionByZero
		}
		share.Quo(share, new(big.Int).SetUint64(n))
		if sum.Add(sum, share).Cmp(maxUint256) > 0 {
			return nil, ErrOverflow
		}
	}
	return sum, nil
}

// mulDiv is x*y/d rounded down with a full-width product, as OpenZeppelin's
// Math.mulDiv: only a result past 256 bits fails.
func mulDiv(x, y, d *big.Int) (*big.Int, error) {
	out := new(big.Int).Mul(x, y)
	out.Quo(out, d)
	if out.Cmp(maxUint256) > 0 {
		return nil, ErrOverflow
	}
	return out, nil
}

// UnlockedPPM returns the millionths of the allocation s has unlocked at t,
// for display next to Vested's amount: the same rules in percents (each
// piece's percent*k/numberOfPeriods rounded down, 100% from the end of the
// last piece), capped at PercentScale. While Unclaimable, it stays at what
// was unlocked before the first piece that divides by zero started.
func (s Schedule) UnlockedPPM(t time.Time) uint64 {
	now := t.Unix()
	switch s.Kind {
	case Calendar:
		var ppm uint64
		for i, ts := range s.UnlockTimestamps {
			if int64(ts) > now {
				break
			}
			if i >= len(s.UnlockPercents) || s.UnlockPercents[i] == nil {
				continue
			}
			p := s.UnlockPercents[i]
			if !p.IsUint64() || p.Uint64() >= PercentScale {
				return PercentScale
			}
			ppm += p.Uint64()
		}
		return min(ppm, PercentScale)
	case Interval:
		if len(s.Pieces) == 0 {
			return 0
		}
		if now >= 0 && uint64(now) >= s.Pieces[len(s.Pieces)-1].end() {
			return PercentScale
		}
		if _, blocked := s.Unclaimable(t); blocked {
			return s.UnlockedPPM(time.Unix(s.blockedFrom()-1, 0))
		}
		var ppm uint64
		for _, p := range s.Pieces {
			if now < int64(p.StartDate) {
				continue
			}
			n := uint64(p.NumberOfPeriods)
			k := min(n, uint64(now-int64(p.StartDate))/uint64(p.PeriodLength))
			ppm += uint64(p.Percent) * k / n
		}
		return min(ppm, PercentScale)
	}
	return 0
}

// blockedFrom is the earliest start of a piece the vester divides by zero
// on.
func (s Schedule) blockedFrom() int64 {
	from := int64(math.MaxInt64)
	for _, p := range s.Pieces {
		if p.PeriodLength == 0 || p.NumberOfPeriods == 0 {
			from = min(from, int64(p.StartDate))
		}
	}
	return from
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
		if end, ok := s.end(); ok {
			times = append(times, end.Unix()) // the full total, whatever the pieces add up to
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
		if ppm == last { // no change, or nothing unlocked yet
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
	if p.NumberOfPeriods == 0 || p.PeriodLength == 0 {
		return nil // nothing until the schedule's end (Unclaimable)
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

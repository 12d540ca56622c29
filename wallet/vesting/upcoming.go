package vesting

import (
	"math/big"
	"sort"
	"time"
)

// Unlock is one moment an allocation's vested amount grows.
type Unlock struct {
	At time.Time
	// PPM is the millionths of the allocation that unlock at At.
	PPM uint64
	// Amount is what unlocks at At, in base units: Vested(At) less what
	// was vested before, exactly as the production vester computes both
	// (D16: each piece rounds down in wei).
	Amount *big.Int
	// Vested is what the allocation has vested from At on.
	Vested *big.Int
}

// MaxUnlocks bounds Unlocks: a schedule of a step every second would
// otherwise list millions in a quarter.
const MaxUnlocks = 1000

// Unlocks lists, in order, the moments after `after` and up to `until`
// (inclusive) at which what the production vester pays grows, at most
// limit of them (MaxUnlocks when limit is not positive): a calendar
// entry, the end of an interval piece's period, the end of the schedule
// (the full total). A moment where nothing grows (a 0% entry, a period too
// small to round to a wei) is left out. While the vester cannot compute
// what is vested (Schedule.Unclaimable) nothing unlocks; its end unlocks
// the rest at once.
func (a Args) Unlocks(after, until time.Time, limit int) []Unlock {
	if limit <= 0 || limit > MaxUnlocks {
		limit = MaxUnlocks
	}
	from, to := after.Unix(), until.Unix()
	if to <= from {
		return nil
	}
	times := a.Schedule.stepsBetween(from, to, limit)
	prev, prevPPM := a.Unlocked(after), a.Schedule.UnlockedPPM(after)
	var out []Unlock
	for _, ts := range times {
		if len(out) == limit {
			break
		}
		at := time.Unix(ts, 0).UTC()
		cur, ppm := a.Unlocked(at), a.Schedule.UnlockedPPM(at)
		if cur.Cmp(prev) <= 0 {
			continue
		}
		u := Unlock{At: at, Amount: new(big.Int).Sub(cur, prev), Vested: cur}
		if ppm > prevPPM {
			u.PPM = ppm - prevPPM
		}
		out = append(out, u)
		prev, prevPPM = cur, max(ppm, prevPPM)
	}
	return out
}

// stepsBetween are the times in (from, to] at which the schedule's
// vested amount may change, ascending, each once, the earliest limit of
// each source.
func (s Schedule) stepsBetween(from, to int64, limit int) []int64 {
	var times []int64
	in := func(ts int64) bool { return ts > from && ts <= to }
	switch s.Kind {
	case Calendar:
		for _, ts := range s.UnlockTimestamps {
			if in(int64(ts)) && len(times) < limit {
				times = append(times, int64(ts))
			}
		}
	case Interval:
		for _, p := range s.Pieces {
			times = append(times, p.stepsBetween(from, to, limit)...)
		}
		if end, ok := s.end(); ok && in(end.Unix()) {
			times = append(times, end.Unix())
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	out := times[:0]
	for i, ts := range times {
		if i == 0 || ts != times[i-1] {
			out = append(out, ts)
		}
	}
	return out
}

// stepsBetween are the ends of p's periods in (from, to], at most limit,
// found without walking the periods before from.
func (p Piece) stepsBetween(from, to int64, limit int) []int64 {
	if p.PeriodLength == 0 || p.NumberOfPeriods == 0 {
		return nil // nothing until the schedule's end (Unclaimable)
	}
	start, length, n := int64(p.StartDate), int64(p.PeriodLength), int64(p.NumberOfPeriods)
	k := int64(1)
	if from >= start {
		k = (from-start)/length + 1 // the first period end after from
	}
	var out []int64
	for ; k <= n && len(out) < limit; k++ {
		ts := start + k*length
		if ts > to {
			break
		}
		out = append(out, ts)
	}
	return out
}

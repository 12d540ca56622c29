package schedule

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"allot/api"
)

// step is a month of a schedule from which Unlocked (a fraction of the
// total) is unlocked.
type step struct {
	Month    int
	Unlocked decimal.Decimal
}

// maxMonths bounds month values as the service does (a hundred years).
const maxMonths = 1200

// unlockSteps is what req unlocks month by month from its start: the
// cumulative fraction at month 0 and at every month where it changes.
// unlockAtStart unlocks at month 0, the cliff's value at its duration, a
// one-off piece its portion at startDelay+offset, and a periodic piece its
// portion in ceil(length/frequency) equal steps, every frequency months
// after startDelay, the last at startDelay+length (as the vester counts an
// interval piece: nothing until a whole period has passed). Month values
// are whole, clamped to 0..1200.
func unlockSteps(req api.ScheduleRequest) []step {
	at := map[int]decimal.Decimal{}
	add := func(m int, d decimal.Decimal) { m = min(m, maxMonths); at[m] = at[m].Add(d) }
	months := func(n api.Number) int {
		return int(min(max(n.IntPart(), 0), maxMonths))
	}
	add(0, req.UnlockAtStart.Decimal)
	add(months(req.Cliff.Duration), req.Cliff.Value.Decimal)
	for _, p := range req.Pieces {
		delay := months(p.StartDelay.Value)
		switch {
		case p.OneOff != nil:
			add(delay+months(p.OneOff.Offset.Value), p.Portion.Decimal)
		case p.Periodic != nil:
			length, freq := months(p.Periodic.Length.Value), months(p.Periodic.Frequency.Value)
			if freq < 1 || length < 1 {
				add(delay+length, p.Portion.Decimal)
				continue
			}
			n := (length + freq - 1) / freq
			share := p.Portion.Div(decimal.NewFromInt(int64(n)))
			for k := 1; k < n; k++ {
				add(delay+k*freq, share)
			}
			add(delay+length, p.Portion.Sub(share.Mul(decimal.NewFromInt(int64(n-1)))))
		}
	}
	monthsSet := make([]int, 0, len(at))
	for m := range at {
		monthsSet = append(monthsSet, m)
	}
	sort.Ints(monthsSet)
	steps := []step{{Month: 0}}
	total := decimal.Zero
	for _, m := range monthsSet {
		total = total.Add(at[m])
		if m == 0 {
			steps[0].Unlocked = total
			continue
		}
		if total.Equal(steps[len(steps)-1].Unlocked) {
			continue
		}
		steps = append(steps, step{Month: m, Unlocked: total})
	}
	return steps
}

// addMonths is t plus n calendar months, the day kept where the month
// has it and else the month's last day.
func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), 0, t.Location())
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}

// Package upcoming lists the unlocks ahead of the allocations a user
// follows, with their totals per week and month: what `allot upcoming`
// prints and the Upcoming screen shows. Each unlock is what the production
// vester will count (wallet.Upcoming): exact, in base units, none after a
// cancel or a revoke.
package upcoming

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
	"allot/wallet/vesting"
)

// DefaultDays is how far ahead the unlocks are listed unless told.
const DefaultDays = 90

// MaxDays bounds the window: ten years of a daily schedule is plenty.
const MaxDays = 3660

// perAllocation bounds the unlocks listed of one allocation.
const perAllocation = vesting.MaxUnlocks

// Unlock is one unlock ahead of one allocation.
type Unlock struct {
	Allocation string
	// Token is the vester's token; zero when its record was not read.
	Token common.Address
	// Vester holds the allocation's root; zero when it was not checked.
	Vester common.Address
	// Unit names its amounts for people ("MRD"; see Name); "" when
	// unknown.
	Unit string
	vesting.Unlock
}

// Allocation is what was found of one followed allocation.
type Allocation struct {
	ID string
	// State is the vester's ("active", "cancelled", "revoked"), or ""
	// when its record was not read: its unlocks are then the schedule's,
	// uncapped.
	State string
	// Unchecked says why the allocation's state or root could not be
	// checked; "" when every check passed.
	Unchecked string
	// Unlocks is how many of its unlocks are in the window.
	Unlocks int
	// Err is why it could not be read at all.
	Err error
}

// Report is the unlocks ahead of the allocations asked, in time order.
type Report struct {
	From, To    time.Time
	Unlocks     []Unlock
	Allocations []Allocation
}

// Check reads one allocation as a claim would see it now
// (session.CheckAllocation).
type Check func(ctx context.Context, id string) (*wallet.Verification, error)

// Collect reads each of ids and lists its unlocks from now (the time it
// was read at: the chain's) to days later. An allocation that cannot be
// read is listed with its error; the others still are. It stops early when
// ctx ends.
func Collect(ctx context.Context, check Check, ids []string, now time.Time, days int) Report {
	r := Report{From: now.UTC(), To: now.UTC().Add(time.Duration(days) * 24 * time.Hour)}
	for _, id := range ids {
		if ctx.Err() != nil {
			r.Allocations = append(r.Allocations, Allocation{ID: id, Err: ctx.Err()})
			continue
		}
		a, unlocks := collectOne(ctx, check, id, days)
		r.Allocations = append(r.Allocations, a)
		r.Unlocks = append(r.Unlocks, unlocks...)
	}
	slices.SortStableFunc(r.Unlocks, func(x, y Unlock) int {
		return cmp.Or(x.At.Compare(y.At), cmp.Compare(x.Allocation, y.Allocation))
	})
	return r
}

func collectOne(ctx context.Context, check Check, id string, days int) (Allocation, []Unlock) {
	a := Allocation{ID: id}
	v, err := check(ctx, id)
	if err != nil {
		a.Err = err
		return a, nil
	}
	// A proof that fails a check is not the allocation's: its schedule
	// says nothing of what will unlock.
	if v.Args == nil || v.Outcome() == wallet.Fail {
		a.Err = fmt.Errorf("check failed: %s", strings.Join(v.Failures(), "; "))
		return a, nil
	}
	if v.Standing != nil {
		a.State = v.Standing.State()
	}
	if v.Outcome() != wallet.Pass {
		a.Unchecked = strings.Join(v.Unchecked(), "; ")
	}
	var token common.Address
	if v.Standing != nil {
		token = v.Standing.Token
	}
	list := wallet.Upcoming(*v.Args, v.Standing, v.At, v.At.Add(time.Duration(days)*24*time.Hour), perAllocation)
	out := make([]Unlock, len(list))
	for i, u := range list {
		out[i] = Unlock{Allocation: id, Token: token, Vester: v.Vester, Unlock: u}
	}
	a.Unlocks = len(out)
	return a, out
}

// Period is what totals add up over.
type Period int

const (
	// Week is an ISO week: from Monday 00:00 UTC.
	Week Period = iota
	// Month is a calendar month in UTC.
	Month
)

// Start is the start of the period t falls in, in UTC.
func (p Period) Start(t time.Time) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if p == Month {
		return day.AddDate(0, 0, 1-t.Day())
	}
	return day.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
}

// Name names the amounts of each unlock (Unit) by its vester: unit gives
// the name of what a vester pays out, "" when it cannot tell.
func (r *Report) Name(unit func(vester common.Address) string) {
	for i := range r.Unlocks {
		r.Unlocks[i].Unit = unit(r.Unlocks[i].Vester)
	}
}

// Total is what unlocks of one token in one period.
type Total struct {
	Start   time.Time
	Token   common.Address
	Unit    string // the unlocks' Unit
	Amount  *big.Int
	Unlocks int
}

// Totals adds the report's unlocks up per period and token, in time
// order: amounts of different tokens, or named differently, are never
// added together.
func (r Report) Totals(p Period) []Total {
	var out []Total
	for _, u := range r.Unlocks {
		start := p.Start(u.At)
		i := slices.IndexFunc(out, func(t Total) bool { return t.Start.Equal(start) && t.Token == u.Token && t.Unit == u.Unit })
		if i < 0 {
			out = append(out, Total{Start: start, Token: u.Token, Unit: u.Unit, Amount: new(big.Int)})
			i = len(out) - 1
		}
		out[i].Amount.Add(out[i].Amount, u.Amount)
		out[i].Unlocks++
	}
	slices.SortStableFunc(out, func(x, y Total) int { return x.Start.Compare(y.Start) })
	return out
}

// Tokens are the tokens the report's unlocks are of, in order of first
// unlock.
func (r Report) Tokens() []common.Address {
	var out []common.Address
	for _, u := range r.Unlocks {
		if !slices.Contains(out, u.Token) {
			out = append(out, u.Token)
		}
	}
	return out
}

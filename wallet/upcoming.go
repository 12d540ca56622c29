package wallet

import (
	"time"

	"allot/wallet/vesting"
)

// Upcoming are the unlocks of args in (after, until] that the vester will
// count (D16, D18): the schedule's, none for a revoked allocation, none
// after a cancelled one's cancel time. A nil standing (the vester's record
// was not read) caps nothing: the caller says the state is unchecked.
func Upcoming(args vesting.Args, s *Standing, after, until time.Time, limit int) []vesting.Unlock {
	if s != nil {
		if s.Revoked() {
			return nil
		}
		if at, ok := s.CancelledAt(); ok && at.Before(until) {
			until = at
		}
	}
	return args.Unlocks(after, until, limit)
}

// NextUnlock is the first unlock after `after` within horizon, as
// Upcoming counts it; ok is false when there is none.
func NextUnlock(args vesting.Args, s *Standing, after time.Time, horizon time.Duration) (u vesting.Unlock, ok bool) {
	next := Upcoming(args, s, after, after.Add(horizon), 1)
	if len(next) == 0 {
		return vesting.Unlock{}, false
	}
	return next[0], true
}

// AsOf is v with what depends on the time computed again at at: what is
// unlocked and what a claim pays, from the leaf and the vester's record
// read with v. The checks are v's: nothing is read again, so what was
// withdrawn since and the vester's balance are as v read them.
func (v *Verification) AsOf(at time.Time) *Verification {
	out := *v
	out.At = at.UTC()
	if v.Args == nil {
		return &out
	}
	out.UnlockedPPM = v.Args.Schedule.UnlockedPPM(out.At)
	out.Unlocked, out.Unclaimable = v.Args.Vested(out.At)
	if v.Standing != nil {
		p := v.Standing.Payout(*v.Args, out.At)
		out.Payout = &p
	}
	return &out
}

// Package watch tells what changed in an allocation between two looks:
// more unlocked, claimable above a threshold, a claim seen on chain, a
// cancel, a revoke, a new withdrawal address. `allot watch` prints each
// change as one JSON line.
package watch

import (
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/isotime"
	"allot/wallet"
)

// Kinds of events.
const (
	// Watching opens an allocation's watch: its numbers as first seen.
	Watching = "watching"
	// Unlocked: the vester counts more as vested than at the last look.
	Unlocked = "unlocked"
	// Claimable: what a claim can take rose above the threshold (or is
	// above it at the first look).
	Claimable = "claimable"
	// Claimed: the vester paid out more of the allocation: a claim was
	// mined.
	Claimed     = "claimed"
	Cancelled   = "cancelled"
	Revoked     = "revoked"
	Transferred = "transferred"
)

// Snapshot is one look at an allocation, as a claim would see it.
type Snapshot struct {
	// At is the time looked at: the chain's head block's.
	At time.Time
	// Vested is what the vester counts as vested (the schedule's before
	// its record is read); Claimable, Withdrawn and State are nil or ""
	// when the vester's record was not read.
	Vested    *big.Int
	Claimable *big.Int
	Withdrawn *big.Int
	State     string
	// Recipient is where a claim's tokens go; zero when not read.
	Recipient common.Address
}

// Of is the snapshot of a verification.
func Of(v *wallet.Verification) Snapshot {
	s := Snapshot{At: v.At, Vested: v.Unlocked}
	if v.Standing != nil && v.Payout != nil && v.Args != nil {
		s.Vested, s.Withdrawn, s.State = v.Payout.Vested, v.Standing.Withdrawn, v.Standing.State()
		s.Claimable = v.Claimable()
		s.Recipient = v.Standing.Recipient(v.Args.Allocation.OriginalBeneficiary)
	}
	return s
}

// Event is one line of `allot watch`: amounts are exact decimals in token
// units, with their base units beside them.
type Event struct {
	Time       string `json:"time"`
	Allocation string `json:"allocation"`
	Event      string `json:"event"`
	// Amount is the change: what unlocked or was claimed.
	Amount    string `json:"amount,omitempty"`
	AmountWei string `json:"amountWei,omitempty"`
	// The allocation's numbers after the change.
	Vested       string `json:"vested,omitempty"`
	Claimable    string `json:"claimable,omitempty"`
	ClaimableWei string `json:"claimableWei,omitempty"`
	Withdrawn    string `json:"withdrawn,omitempty"`
	State        string `json:"state,omitempty"`
	Recipient    string `json:"recipient,omitempty"`
	// Previous is the recipient before a transfer.
	Previous string `json:"previous,omitempty"`
}

// Above reports whether s's claimable is above threshold.
func (s Snapshot) Above(threshold *big.Int) bool {
	return s.Claimable != nil && s.Claimable.Sign() > 0 && s.Claimable.Cmp(threshold) > 0
}

// Changes are the events between the look prev (nil: none yet) and cur
// of allocation id, in the order a reader wants them: what the vester
// did (cancel, revoke, transfer), a claim, an unlock, then what can be
// claimed.
func Changes(id string, prev *Snapshot, cur Snapshot, threshold *big.Int) []Event {
	event := func(kind string) Event {
		e := Event{Time: isotime.Format(cur.At), Allocation: id, Event: kind,
			Vested: amount(cur.Vested), Claimable: amount(cur.Claimable), Withdrawn: amount(cur.Withdrawn), State: cur.State}
		if cur.Claimable != nil {
			e.ClaimableWei = cur.Claimable.String()
		}
		if cur.Recipient != (common.Address{}) {
			e.Recipient = cur.Recipient.Hex()
		}
		return e
	}
	changed := func(e Event, by *big.Int) Event {
		e.Amount, e.AmountWei = wallet.FormatUnits(by), by.String()
		return e
	}
	if prev == nil {
		out := []Event{event(Watching)}
		if cur.Above(threshold) {
			out = append(out, event(Claimable))
		}
		return out
	}
	var out []Event
	if prev.State == "active" && (cur.State == Cancelled || cur.State == Revoked) {
		out = append(out, event(cur.State))
	}
	if prev.Recipient != (common.Address{}) && cur.Recipient != (common.Address{}) && prev.Recipient != cur.Recipient {
		e := event(Transferred)
		e.Previous = prev.Recipient.Hex()
		out = append(out, e)
	}
	if more := diff(cur.Withdrawn, prev.Withdrawn); more != nil {
		out = append(out, changed(event(Claimed), more))
	}
	if more := diff(cur.Vested, prev.Vested); more != nil {
		out = append(out, changed(event(Unlocked), more))
	}
	if cur.Above(threshold) && !prev.Above(threshold) {
		out = append(out, event(Claimable))
	}
	return out
}

// diff is cur - prev when both are known and cur is larger, else nil.
func diff(cur, prev *big.Int) *big.Int {
	if cur == nil || prev == nil || cur.Cmp(prev) <= 0 {
		return nil
	}
	return new(big.Int).Sub(cur, prev)
}

func amount(x *big.Int) string {
	if x == nil {
		return ""
	}
	return wallet.FormatUnits(x)
}

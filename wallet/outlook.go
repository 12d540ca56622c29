package wallet

import (
	"cmp"
	"fmt"
	"strings"
)

// ClaimOutlook is what a claim of an allocation can do now, from its
// record on the vester (D18), known before anything is asked of the
// service: the claim form and `allot claim` read it, and send nothing
// that the signing policy would refuse whatever the amount.
type ClaimOutlook struct {
	// Blocked says why no claim can be signed now (revoked, nothing
	// left or nothing vested since the last claim, a schedule the vester
	// cannot pay); empty when one can.
	Blocked string
	// Notes are what a claim should know first: a cancelled allocation,
	// an underfunded vester, a vester that pays only through handlers.
	Notes []string
}

// ClaimOutlook reads v's standing and payout; amounts are said in unit
// (the token's symbol; "" says tokens). Unknown standing (no chain, a
// record that could not be read) blocks nothing: the signing policy
// reads it again, and refuses what it cannot check.
func (v *Verification) ClaimOutlook(unit string) ClaimOutlook {
	unit = cmp.Or(unit, "tokens")
	var o ClaimOutlook
	s, p := v.Standing, v.Payout
	if s == nil || p == nil {
		return o
	}
	switch {
	case s.Revoked():
		o.Blocked = "the allocation was revoked on the vester: nothing of it vests, and nothing can be claimed"
	case p.Unclaimable != nil:
		o.Blocked = p.Unclaimable.Error()
	case p.Owed.Sign() > 0:
	case s.Terminated():
		o.Blocked = "the allocation was cancelled and everything that vested before was claimed: nothing is left to claim"
	case v.Args != nil && s.Withdrawn.Cmp(v.Args.Allocation.TotalAllocation) >= 0:
		o.Blocked = "the allocation was claimed in full: nothing is left to claim"
	default:
		o.Blocked = "nothing is claimable now: what vested so far was claimed; wait for the next unlock"
	}
	if at, ok := s.CancelledAt(); ok && !s.Revoked() {
		o.Notes = append(o.Notes, fmt.Sprintf("cancelled at %s: nothing more vests; %s %s vested before then and were not claimed",
			FactTime(at), FormatTokens(p.Owed), unit))
	}
	if p.Underfunded() {
		// Not a block: the vester may be funded before the claim is
		// signed, and the policy reads its balance again then.
		o.Notes = append(o.Notes, fmt.Sprintf("the vester holds %s %s, less than the %s owed: a claim pays at most what it holds",
			FormatTokens(p.Withdrawable), unit, FormatTokens(p.Owed)))
	}
	if via := s.ViaHandlers(); !s.DirectClaim() && len(via) > 0 {
		var names []string
		for _, h := range via {
			names = append(names, h.Hex())
		}
		o.Notes = append(o.Notes, "the vester pays only through post-claim handler "+strings.Join(names, ", ")+", which the profile must pin; the tokens go to that contract")
	} else if !s.DirectClaim() && o.Blocked == "" {
		o.Blocked = "the vester allows neither a direct claim nor a post-claim handler: nothing can be claimed"
	}
	return o
}

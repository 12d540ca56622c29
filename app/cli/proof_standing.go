package cli

import (
	"strings"
	"time"

	"allot/wallet"
)

// standingPairs say what happened to the allocation since its leaf, as its
// vester keeps it (docs/deployment.md D18), for `allot proof --verify`: its state, where the
// tokens of a claim go, what was withdrawn, what the vester counts as
// vested and holds, and what a claim can take now. Without the vester's
// record, what a claim can take is unknown, and the pairs say why. The
// amounts name u's token.
func standingPairs(v *wallet.Verification, u inUnit) []string {
	s, p := v.Standing, v.Payout
	if s == nil || p == nil || v.Args == nil {
		return []string{"claimable now", "unknown: " + v.StateCheck.Reason}
	}
	beneficiary := v.Args.Allocation.OriginalBeneficiary
	state := s.State()
	if at, ok := s.CancelledAt(); ok {
		state += " at " + at.Format(time.RFC3339) + ": vesting stopped then"
	}
	if s.Revoked() {
		state += ": nothing of it vests, and nothing can be claimed"
	}
	if s.Withdrawn.Sign() > 0 {
		state += " · claimed in part"
	}
	recipient := s.Recipient(beneficiary).Hex() + " (the leaf's beneficiary)"
	if s.Transferred(beneficiary) {
		recipient = s.Recipient(beneficiary).Hex() + " (transferred: not the leaf's beneficiary)"
	}
	pairs := []string{"state", state, "tokens go to", recipient, "withdrawn", u.tokens(s.Withdrawn)}
	if p.Unclaimable != nil {
		return append(pairs, "vester holds", u.tokens(s.VesterBalance), "claimable now", "none until the schedule can be paid out")
	}
	switch {
	case s.Revoked(): // counted at time zero by the vester: no date to show
		pairs = append(pairs, "vested", "none: revoked, nothing of it vests")
	case s.Terminated():
		pairs = append(pairs, "vested", u.tokens(p.Vested)+" at "+p.VestedAt.Format(time.RFC3339)+", as the vester counts it")
	}
	if !s.DirectClaim() {
		var handlers []string
		for _, h := range s.ViaHandlers() {
			handlers = append(handlers, h.Hex())
		}
		if len(handlers) == 0 {
			handlers = []string{"(none: the vester pays no claim)"}
		}
		pairs = append(pairs, "claims", "only through post-claim handler "+strings.Join(handlers, ", ")+": the tokens go to that contract, not to a wallet")
	}
	balance := u.tokens(s.VesterBalance)
	if p.Underfunded() {
		balance += " (UNDERFUNDED: less than the " + u.tokens(p.Owed) + " owed; a claim pays at most this)"
	}
	return append(pairs, "vester holds", balance, "claimable now", u.tokens(p.Withdrawable))
}

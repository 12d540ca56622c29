package holder

import (
	"fmt"
	"strings"
	"time"

	"allot/views/widget"
	"allot/wallet"
)

// standingFields say what the allocation's vester keeps of it (D18),
// below its state (stateField): what a claim can take now, what was
// withdrawn, where the tokens of a claim go, and what the vester counts
// as vested and holds. Only the vester knows: without its record
// they say why not, never a guess.
func standingFields(v *wallet.Verification, now time.Time, u unit) []widget.Field {
	s, p := v.Standing, v.Payout
	if s == nil || p == nil || v.Args == nil {
		return []widget.Field{{Label: "Claimable now", Value: "unknown: " + v.StateCheck.Reason, Tone: widget.ToneUnchecked}}
	}
	// What can be claimed first; what limits it (a vester short of
	// tokens, a handler) follows.
	claimable := widget.Field{Label: "Claimable now", Value: "none until the schedule can be paid out (see below)"}
	if c := v.Claimable(); c != nil {
		claimable.Value = u.tokens(c)
	}
	beneficiary := v.Args.Allocation.OriginalBeneficiary
	fields := []widget.Field{claimable, {Label: "Withdrawn", Value: u.tokens(s.Withdrawn)}}
	recipient := widget.Field{Label: "Tokens go to", Value: s.Recipient(beneficiary).Hex() + "  the leaf's beneficiary"}
	if s.Transferred(beneficiary) {
		recipient.Value = s.Recipient(beneficiary).Hex() + "  transferred: not the leaf's beneficiary " + beneficiary.Hex()
		recipient.Tone = widget.ToneUnchecked
	}
	fields = append(fields, recipient)
	switch {
	case s.Revoked():
		// The vester counts a revoke as vesting stopped at time zero: no
		// date of it to show.
		fields = append(fields, widget.Field{Label: "Vested", Value: "none: revoked, nothing of it vests"})
	case s.Terminated() && p.Unclaimable == nil:
		fields = append(fields, widget.Field{Label: "Vested", Value: u.tokens(p.Vested) +
			"  at " + widget.FormatTime(p.VestedAt, now) + ", as the vester counts it"})
	}
	balance := widget.Field{Label: "Vester holds", Value: u.tokens(s.VesterBalance)}
	if p.Unclaimable == nil && p.Underfunded() {
		balance.Value += "  UNDERFUNDED: less than the " + u.tokens(p.Owed) + " owed; a claim pays at most this"
		balance.Tone = widget.ToneFail
	}
	fields = append(fields, balance)
	if !s.DirectClaim() {
		fields = append(fields, widget.Field{Label: "Claims", Tone: widget.ToneUnchecked,
			Value: "only through post-claim handler " + handlerList(s) + ": the tokens go to that contract, not to a wallet"})
	}
	return fields
}

// stateField names the allocation's state and what it means for a claim.
func stateField(v *wallet.Verification, now time.Time) widget.Field {
	s := v.Standing
	claimed := ""
	if s.Withdrawn.Sign() > 0 {
		claimed = " · claimed in part"
	}
	switch at, cancelled := s.CancelledAt(); {
	case s.Revoked():
		return widget.Field{Label: "State", Value: "REVOKED: nothing of it vests, and nothing can be claimed" + claimed, Tone: widget.ToneFail}
	case cancelled:
		return widget.Field{Label: "State", Value: "CANCELLED at " + widget.FormatTime(at, now) + ": vesting stopped then" + claimed, Tone: widget.ToneUnchecked}
	}
	return widget.Field{Label: "State", Value: "active" + claimed}
}

// maxHandlersShown bounds the handlers named on a line: the whitelist is
// the chain's, of any length.
const maxHandlersShown = 3

// handlerList names the vester's post-claim handler contracts.
func handlerList(s *wallet.Standing) string {
	handlers := s.ViaHandlers()
	if len(handlers) == 0 {
		return "(none: the vester pays no claim)"
	}
	var out []string
	for _, h := range handlers[:min(len(handlers), maxHandlersShown)] {
		out = append(out, h.Hex())
	}
	if more := len(handlers) - maxHandlersShown; more > 0 {
		out = append(out, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(out, ", ")
}

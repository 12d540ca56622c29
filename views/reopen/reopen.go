// Package reopen opens a journaled write whose outcome is unknown in the
// page of the screens that send it. It is the one package of screens that
// imports the families that write (operator, schedule, creative, holder),
// so that Transactions, which lists those writes, imports none of them and
// their tests can read Transactions back.
package reopen

import (
	"time"

	"allot/internal/act"
	"allot/views"
	"allot/views/creative"
	"allot/views/holder"
	"allot/views/operator"
	"allot/views/schedule"
)

// Unknown is the page of a write whose outcome is unknown, read back
// from the journal: the body sent, whether the service applied it (when
// it can be asked), and the same bytes sent again after a yes. nil when
// the body cannot be taken back as sent.
func Unknown(ctx *views.Context, op, ref, write string, body []byte, at time.Time) views.Screen {
	switch op {
	case act.OpTransaction:
		return operator.Reopen(ctx, ref, write, body, at)
	case act.OpSchedule:
		return schedule.Reopen(ctx, write, body, at)
	case act.OpUploadURL, act.OpCreative:
		return creative.Reopen(ctx, op, ref, write, body, at)
	case act.OpClaim:
		return holder.ReopenClaim(ctx, ref, write, body, at)
	}
	return nil
}

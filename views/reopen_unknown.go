package views

import (
	"allot/internal/act"
	"time"
)

// ReopenUnknown is the page of a write whose outcome is unknown, read back
// from the journal: the body sent, whether the service applied it (when
// it can be asked), and the same bytes sent again after a yes. nil when
// canReopen says no.
func ReopenUnknown(ctx *Context, op, ref, write string, body []byte, at time.Time) Screen {
	switch op {
	case act.OpTransaction:
		return ReopenOperator(ctx, ref, write, body, at)
	case act.OpSchedule:
		return ReopenSchedule(ctx, write, body, at)
	case act.OpUploadURL, act.OpCreative:
		return ReopenCreative(ctx, op, ref, write, body, at)
	case act.OpClaim:
		return ReopenClaim(ctx, ref, write, body, at)
	}
	return nil
}

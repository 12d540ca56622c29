// Package reopen opens a journaled write whose outcome is unknown in the
// page of the screens that send it. It is the one package of screens that
// imports the families that write (operator, schedule), so that
// Transactions, which lists those writes, imports none of them and their
// tests can read Transactions back.
package reopen

import (
	"time"

	"allot/core/act"
	"allot/core/write"
	"allot/views"
	"allot/views/operator"
	"allot/views/schedule"
)

// page opens a write about ref, journaled as id, in the form it was sent
// from.
type page func(ctx *views.Context, ref, id string, body []byte, at time.Time) views.Screen

// pages are the kinds of write whose family reopens them in the form
// they were sent from, to be corrected and sent again; every other kind
// opens in a views.LostWrite, as its kind (core/write) says.
var pages = map[string]page{
	write.OpTransaction: operator.Reopen,
	write.OpSchedule: func(ctx *views.Context, _, id string, body []byte, at time.Time) views.Screen {
		return schedule.Reopen(ctx, id, body, at)
	},
}

// Unknown is the page of a write whose outcome is unknown, read back
// from the journal: the body sent, whether the service applied it (when
// it can be asked), and the same bytes sent again after a yes. nil when
// the write is of no kind allot sends, or its body cannot be taken back
// as sent.
func Unknown(ctx *views.Context, op, ref, id string, body []byte, at time.Time) views.Screen {
	k, ok := write.Of(op)
	if !ok || !k.AsSent(ref, body) {
		return nil
	}
	if open, ok := pages[op]; ok {
		return open(ctx, ref, id, body, at)
	}
	return views.NewLostWrite(ctx, act.Sent{Op: op, Ref: ref, Write: id, Body: body}, at)
}

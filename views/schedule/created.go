package schedule

import (
	"time"

	"allot/core/act"
	"allot/core/write"
	"allot/views"
)

// Reopen is the page of a schedule whose answer never came, read
// back from the journal: the body sent, what a check finds (it runs when
// the page opens, and settles the write when it can tell), and r to send
// the same bytes again after a yes. nil when body is not a schedule that
// encodes back to the same bytes.
func Reopen(ctx *views.Context, id string, body []byte, at time.Time) views.Screen {
	req, ok := write.Schedule.Read("", body)
	if !ok {
		return nil
	}
	s := New(ctx).(*schedule)
	s.reviewed, s.body, s.pretty = req, body, views.PrettyBody(body)
	s.state = stageUnknown
	s.outcome.Reopen(ctx, act.Sent{Op: act.OpSchedule, Ref: req.Name, Write: id, Body: body})
	s.lostNote = "No answer came for this schedule (the journal, " + views.SentAt(at) + "). Checking whether the service applied it…"
	s.layout()
	return s
}

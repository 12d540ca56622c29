package schedule

import (
	"encoding/json"
	"errors"
	"time"

	"allot/api"
	"allot/internal/act"
	"allot/internal/journal"
	"allot/views"
)

// CreatedSchedule is a schedule this machine created, as its journal
// recorded the service's answer.
type CreatedSchedule struct {
	Key, ID, Name string
	At            time.Time
	Profile       string
}

// Reopen is the page of a schedule whose answer never came, read
// back from the journal: the body sent, what a check finds (it runs when
// the page opens, and settles the write when it can tell), and r to send
// the same bytes again after a yes. nil when body is not a schedule that
// encodes back to the same bytes.
func Reopen(ctx *views.Context, write string, body []byte, at time.Time) views.Screen {
	req, ok := views.ReadScheduleRequest(body)
	if !ok {
		return nil
	}
	s := New(ctx).(*schedule)
	s.reviewed, s.body, s.pretty = req, body, views.PrettyBody(body)
	s.state = stageUnknown
	s.outcome.Reopen(ctx.Recorder, act.Sent{Op: createOp, Ref: req.Name, Write: write, Body: body})
	s.lostNote = "No answer came for this schedule (the journal, " + at.UTC().Format("15:04:05 MST on 2 Jan 2006") + "). Checking whether the service applied it…"
	s.layout()
	return s
}

// CreatedSchedules lists the schedules created from this machine on
// deployment d, newest first, from the outcomes of schedules/create in the
// journal.
func CreatedSchedules(j *journal.Journal, d journal.Deployment) ([]CreatedSchedule, error) {
	if j == nil {
		return nil, errors.New("the local journal is not available")
	}
	res, err := j.Read()
	if err != nil {
		return nil, err
	}
	var out []CreatedSchedule
	for i := len(res.Entries) - 1; i >= 0; i-- {
		e := res.Entries[i]
		if e.Kind != journal.KindOutcome || e.Op != createOp || len(e.Data) == 0 || !d.Owns(e) {
			continue
		}
		var sch api.Schedule
		if json.Unmarshal(e.Data, &sch) != nil || sch.Key == "" {
			continue
		}
		out = append(out, CreatedSchedule{Key: sch.Key, ID: sch.ID, Name: sch.Name, At: e.At, Profile: e.Profile})
	}
	return out, nil
}

package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/act"
	"allot/views"
	"allot/views/widget"
)

func (s *schedule) review() tea.Cmd {
	s.form.Try()
	s.revalidate()
	if !s.valid {
		n := len(s.general)
		first := -1
		for i, f := range s.form.Fields() {
			if f.Err() != nil {
				n++
				if first < 0 {
					first = i
				}
			}
		}
		if s.sumErr != "" {
			n++
		}
		s.setMessage(fmt.Sprintf("%d problem(s) to fix before review", n), true)
		if first >= 0 {
			return s.form.Focus(first)
		}
		return nil
	}
	body, err := json.Marshal(s.req)
	if err != nil {
		s.setMessage("cannot encode the schedule: "+err.Error(), true)
		return nil
	}
	s.reviewed, s.body = s.req, body
	s.pretty = views.PrettyBody(body)
	s.state = stageReview
	s.asking = views.NewWriteReview(s.ctx, "Review: POST "+act.OpSchedule+" with exactly this body", "", s.pretty,
		s.ctx.Confirm("schedule-create", fmt.Sprintf("Create schedule %q? y sends the body above to %s.", s.req.Name, act.OpSchedule)))
	s.layout()
	s.setMessage("", false)
	return nil
}

func (s *schedule) confirmed(msg widget.ConfirmMsg) tea.Cmd {
	switch {
	case s.state == stageReview && s.asking.Confirm.Answers(msg):
		s.asking = nil
		if !msg.Yes {
			s.state = stageForm
			s.setMessage("not sent", false)
			return s.form.Focus(s.form.Focused())
		}
		return s.send()
	case s.state == stageResending && s.asking.Confirm.Answers(msg):
		s.asking = nil
		if !msg.Yes {
			s.state = stageUnknown
			s.layout()
			return nil
		}
		s.outcome.Resent()
		return s.send()
	}
	return nil
}

// send creates the reviewed schedule through the recorder, off the UI
// goroutine. It is only ever called on a confirmed answer.
func (s *schedule) send() tea.Cmd {
	s.state, s.hint = stageSending, ""
	req, rec, client := s.reviewed, s.ctx.Recorder, s.ctx.Session.API
	return s.sending.Start(func(c context.Context) (*api.Schedule, error) {
		return rec.CreateSchedule(c, client, req)
	})
}

// unknownNote says what the check of a write whose answer was lost found
// (Outcome.Note), with what only this page knows; until it answers, what
// happened.
func (s *schedule) unknownNote() string {
	note := s.outcome.Note()
	v := s.outcome.Verdict()
	switch {
	case s.outcome.Checking() || note == "":
		return s.lostNote
	case v != nil && v.Check == act.Applied:
		return note + " The schedule exists, but its key was lost with the answer."
	case v == nil || v.Check != act.NotApplied:
		// The check failed or cannot tell: the operators are asked by name.
		return note + " The schedule is named " + strconv.Quote(s.reviewed.Name) + "; your journal records the request."
	}
	return note
}

// askResend shows the body again under the question Outcome.Resend gives,
// or says why it is not sent again: a check still running. A write found
// applied gets no word: the note above the body already says it is not
// sent again, and r is not offered.
func (s *schedule) askResend() {
	if s.outcome.Applied() {
		return
	}
	asking, refused := s.outcome.AskResend(s.pretty)
	if s.hint = refused; refused != "" {
		s.layout()
		return
	}
	s.state, s.asking = stageResending, asking
	s.layout()
}

func (s *schedule) answered(answer *views.Answer[*api.Schedule]) tea.Cmd {
	written, lost := answer.Lost(act.Sent{Op: act.OpSchedule, Ref: s.reviewed.Name, Body: s.body})
	ve := answer.Refused()
	switch {
	case answer.Err == nil:
		s.state = stageCreated
		s.created = answer.Value
		s.setMessage("", false)
		return s.reloadList()
	case lost:
		// Checked at once: the check settles the write in the journal
		// when it can tell.
		s.state = stageUnknown
		s.lostNote = "No answer came for this schedule. Checking whether the service applied it…"
		check := s.outcome.Lost(s.ctx, written)
		s.layout()
		return tea.Batch(check, s.reloadList())
	case ve != nil && ve.Remote:
		// Placed as the form places them (Form.SetErrors), each until its
		// field is edited; the sum of the portions has no field of its
		// own, and is said with what no field shows.
		s.state = stageForm
		var fields, rest []widget.PathError
		for _, e := range views.PathErrors(ve) {
			if e.Path == "pieces" {
				rest = append(rest, e)
			} else {
				fields = append(fields, e)
			}
		}
		rest = append(rest, s.form.SetErrors(fields)...)
		text := "the service refused the schedule: see the fields marked ✗"
		if len(rest) > 0 {
			text = "the service refused the schedule: " + views.Unmatched(rest)
		}
		s.setMessage(text, true)
		return s.form.Focus(s.form.Focused())
	default:
		s.state = stageForm
		s.setMessage("not created: "+answer.Err.Error(), true)
		return s.form.Focus(s.form.Focused())
	}
}

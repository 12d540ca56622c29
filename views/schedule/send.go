package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/internal/act"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// sentMsg is the answer to a create, and when it was lost what the check
// of it found.
type sentMsg struct {
	seq      int
	res      *api.Schedule
	err      error
	verdict  act.Verdict
	checkErr error
}

// errReopened is the lost answer of a write read back from the journal.
var errReopened = &act.UnknownError{Err: errors.New("no answer came, as the journal recorded")}

func (s *schedule) review() tea.Cmd {
	s.submitted = true
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
	s.asking = views.NewWriteReview(s.ctx, "Review: POST "+createOp+" with exactly this body", "", s.pretty,
		s.ctx.Confirm("schedule-create", fmt.Sprintf("Create schedule %q? y sends the body above to %s.", s.req.Name, createOp)))
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
		s.ctx.Recorder.Resent(s.written)
		return s.send()
	}
	return nil
}

// send creates the reviewed schedule through the recorder, off the UI
// goroutine. It is only ever called on a confirmed answer. When the
// answer is lost, it checks at once whether the service applied the
// write, which settles it in the journal when the check can tell.
func (s *schedule) send() tea.Cmd {
	s.seq = views.NextSeq()
	s.state = stageSending
	seq, req := s.seq, s.reviewed
	rec, client := s.ctx.Recorder, s.ctx.Session.API
	return func() tea.Msg {
		c, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
		defer cancel()
		res, err := rec.CreateSchedule(c, client, req)
		out := sentMsg{seq: seq, res: res, err: err}
		var unknown *act.UnknownError
		if errors.As(err, &unknown) {
			out.verdict, out.checkErr = views.CheckSent(rec, unknown.Sent())
		}
		return out
	}
}

// check asks again whether the write was applied: the page of a write
// read back from the journal, whose first check ran in an earlier run.
func (s *schedule) check(w act.Sent) tea.Cmd {
	seq, rec := s.seq, s.ctx.Recorder
	return func() tea.Msg {
		v, err := views.CheckSent(rec, w)
		return sentMsg{seq: seq, err: errReopened, verdict: v, checkErr: err}
	}
}

// checkNote says what the check of a write whose answer was lost found,
// and what that leaves to do.
func (s *schedule) checkNote(v act.Verdict, err error) string {
	switch {
	case err != nil:
		return "The check whether the service applied it failed (" + sanitize.Line(err.Error()) +
			"): ask the service's operators whether a schedule named " + strconv.Quote(s.reviewed.Name) + " was created before sending again."
	case v.Check == act.Applied:
		return "Checked: the service applied this request. The schedule exists, but its key was lost with the answer. Sending again creates a second one."
	case v.Check == act.NotApplied:
		return "Checked: the service did not apply this request. Sending it again creates the schedule once."
	}
	return "allot cannot check: " + v.Reason + ". Ask the service's operators whether a schedule named " +
		strconv.Quote(s.reviewed.Name) + " was created (your journal records the request) before sending again."
}

func (s *schedule) answered(msg sentMsg) tea.Cmd {
	var ve *api.ValidationError
	switch {
	case msg.err == nil:
		s.state = stageCreated
		s.created = msg.res
		s.setMessage("", false)
		return s.reloadList()
	case act.Unknown(msg.err):
		s.state = stageUnknown
		var unknown *act.UnknownError
		if errors.As(msg.err, &unknown) && unknown != errReopened {
			s.written = unknown.Sent()
		}
		s.unknownNote = s.checkNote(msg.verdict, msg.checkErr)
		s.layout()
		return s.reloadList()
	case errors.As(msg.err, &ve) && ve.Remote:
		s.state = stageForm
		s.remote = map[*widget.FormField]error{}
		var rest []string
		for _, f := range ve.Fields {
			// Placed as the form places them (Form.FieldOf); the sum of
			// the portions has no field of its own.
			if fld, item := s.form.FieldOf(f.Path); fld != nil && f.Path != "pieces" {
				if s.remote[fld] == nil {
					s.remote[fld] = errors.New(item + f.Message)
				}
			} else {
				rest = append(rest, f.String())
			}
		}
		s.revalidate()
		text := "the service refused the schedule: see the fields marked ✗"
		if len(rest) > 0 {
			text = "the service refused the schedule: " + strings.Join(rest, "; ")
		}
		s.setMessage(text, true)
		return s.form.Focus(s.form.Focused())
	default:
		s.state = stageForm
		s.setMessage("not created: "+msg.err.Error(), true)
		return s.form.Focus(s.form.Focused())
	}
}

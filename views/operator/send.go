package operator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/act"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

func (o *operator) bodySum() string { return sha256Hex(o.body) }

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// review checks the whole form and shows the body that would be sent.
func (o *operator) review() tea.Cmd {
	o.general = ""
	if !o.form.Valid() {
		o.general = fixMarked
		return nil
	}
	req := o.build()
	if err := req.Validate(); err != nil {
		o.general = fixMarked
		if loose := o.form.SetErrors(views.PathErrors(err)); len(loose) > 0 {
			o.general = views.Unmatched(loose)
		}
		return nil
	}
	body, err := json.Marshal(req)
	if err != nil {
		o.general = "cannot encode the request: " + err.Error()
		return nil
	}
	o.req, o.body = req, body
	o.pretty = views.PrettyBody(body)
	o.rewrap()
	question := "Send this " + o.action + " request to the service?"
	if w := o.duplicateRows(); w != "" {
		// Said again where the yes is given, not only above the form.
		question = "! " + w + ". " + question
	}
	o.ask("Review: POST "+act.OpTransaction, o.ctx.Confirm("operator-send", question))
	o.state = stageReview
	return nil
}

func (o *operator) answered(msg widget.ConfirmMsg) tea.Cmd {
	switch {
	case o.asking == nil || !o.asking.Confirm.Answers(msg):
		return nil
	case o.state == stageReview:
		o.asking = nil
		if msg.Yes {
			return o.send()
		}
		o.state = stageForm
		return o.form.Focus(o.form.Focused())
	case o.state == stageResend:
		o.asking = nil
		if msg.Yes {
			o.outcome.Resent()
			return o.send()
		}
		o.state = stageUnknown
		o.fitScroll()
	}
	return nil
}

// send sends the reviewed request once, journaled, off the UI goroutine.
func (o *operator) send() tea.Cmd {
	o.state = stageSending
	o.general, o.hint = "", ""
	o.sentAt = o.ctx.Now()
	req, sess, rec := o.req, o.ctx.Session, o.ctx.Recorder
	return o.sending.Start(func(c context.Context) (*api.TransactionsResult, error) {
		return rec.CreateTransaction(c, sess.API, req)
	})
}

// sent shows what the write came to: the transactions created, the page
// of a lost answer (checked at once), or the form with what the service
// refused.
func (o *operator) sent(answer *views.Answer[*api.TransactionsResult]) tea.Cmd {
	if answer.Err == nil {
		o.state, o.result = stageResult, answer.Value
		o.fitScroll()
		o.scroll.Home()
		return nil
	}
	if written, lost := answer.Lost(act.Sent{Op: act.OpTransaction, Ref: o.action, Body: o.body}); lost {
		defer o.fitScroll()
		o.state, o.unknownErr = stageUnknown, answer.Err
		return o.outcome.Lost(o.ctx, written)
	}
	o.state = stageForm
	o.general = "Not created: " + sanitize.Line(answer.Err.Error())
	if invalid := answer.Refused(); invalid != nil {
		o.general = "The service refused the request: fix the marked fields."
		if loose := o.form.SetErrors(views.PathErrors(invalid)); len(loose) > 0 {
			o.general = "The service refused the request: " + views.Unmatched(loose)
		}
	}
	return o.form.Focus(o.form.Focused())
}

// askResend shows the body again and asks before sending it a second
// time, or says why not: a check still running. A write found applied
// gets no word: the check's line already says it is not sent again, and r
// is not offered.
func (o *operator) askResend() tea.Cmd {
	if o.outcome.Applied() {
		return nil
	}
	asking, refused := o.outcome.AskResend(o.pretty)
	if o.hint = refused; refused != "" {
		return nil
	}
	o.asking = asking
	o.asking.SetSize(o.width, o.height)
	o.state = stageResend
	return nil
}

// ask shows the body to send under title, and q under it.
func (o *operator) ask(title string, q *widget.Confirm) {
	o.asking = views.NewWriteReview(o.ctx, title, "The body, exactly as it will be sent:", o.pretty, q)
	o.asking.SetSize(o.width, o.height)
}

package views

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/act"
	"allot/core/write"
	"allot/internal/sanitize"
)

// Outcome is what is known of a write whose answer was lost, for every
// screen that sends writes (operator, schedule, creative, claim, claim
// all, LostWrite): the write as the journal holds it, and what
// Recorder.Check found of it. The check runs as soon as the answer is
// lost, so that nobody is asked whether to send again before allot has
// looked; it settles the write in the journal when it can tell.
type Outcome struct {
	ctx  *Context
	rec  *act.Recorder
	sent act.Sent

	reqs     Requests
	seq      int
	checking bool
	verdict  *act.Verdict
	err      string // why the check failed, safe to draw
	// answers counts the checks that told (found or failed): a check
	// asked again (c) that finds the same says it is another.
	answers int
}

// outcomeChecked is what the check of an Outcome's write found.
type outcomeChecked struct {
	seq     int
	verdict act.Verdict
	err     error
}

// Lost records that sent's answer was lost and checks it at once, through
// rec; what an earlier check found is forgotten.
func (o *Outcome) Lost(ctx *Context, sent act.Sent) tea.Cmd {
	o.Reopen(ctx, sent)
	return o.Check()
}

// Reopen records sent, a write whose answer was lost in an earlier run or
// on a page since closed, without checking it yet: the page that shows it
// checks it as it opens (Check in its Init).
func (o *Outcome) Reopen(ctx *Context, sent act.Sent) {
	o.ctx, o.rec, o.sent, o.verdict, o.err, o.checking, o.answers = ctx, ctx.Recorder, sent, nil, "", false, 0
}

// Forget drops the write and what its checks found. The checks' numbers
// go on, so that the answer of one still on its way is never taken for a
// later write's.
func (o *Outcome) Forget() { *o = Outcome{reqs: o.reqs} }

// Check asks again whether the write was applied; nil while a check runs.
func (o *Outcome) Check() tea.Cmd {
	if o.checking || o.rec == nil {
		return nil
	}
	o.seq = o.reqs.Next()
	o.checking, o.err = true, ""
	seq, rec, sent, root := o.seq, o.rec, o.sent, o.ctx.Root()
	return func() tea.Msg {
		v, err := CheckSent(root, rec, sent)
		return outcomeChecked{seq: seq, verdict: v, err: err}
	}
}

// Update takes the answer of the outcome's check; it reports whether msg
// was that answer (an answer to an earlier check is dropped, and reported
// as taken: it is no one else's).
func (o *Outcome) Update(msg tea.Msg) bool {
	m, ok := msg.(outcomeChecked)
	if !ok {
		return false
	}
	if m.seq != o.seq || !o.checking {
		return true
	}
	o.checking = false
	o.answers++
	if m.err != nil {
		o.err = sanitize.Line(m.err.Error())
		return true
	}
	o.verdict = &m.verdict
	return true
}

// Sent is the write whose answer was lost.
func (o *Outcome) Sent() act.Sent { return o.sent }

// Checking reports whether the check runs.
func (o *Outcome) Checking() bool { return o.checking }

// Verdict is what the check found; nil before it tells, or when it failed.
func (o *Outcome) Verdict() *act.Verdict { return o.verdict }

// CheckErr is why the last check failed, safe to draw; "" when it did not.
func (o *Outcome) CheckErr() string { return o.err }

// Applied reports whether the check found the write applied: it is not
// sent again.
func (o *Outcome) Applied() bool { return o.verdict != nil && o.verdict.Check == act.Applied }

// Note says in a sentence what the check found, or that it runs; "" when
// no check has run.
func (o *Outcome) Note() string {
	switch {
	case o.checking:
		return "Checking whether the service applied it…"
	case o.err != "":
		return o.Numbered("The check whether the service applied it failed: " + o.err + ".")
	case o.verdict != nil:
		return o.Numbered(CheckedNote(*o.verdict, nil))
	}
	return ""
}

// Numbered prefixes note (what the last check found) with the check's
// number from the second check on ("Check 2: …"). Without it, a check
// that finds what the one before found would leave the page unchanged,
// and the user could not tell that c did anything.
func (o *Outcome) Numbered(note string) string {
	if o.answers < 2 || o.checking || note == "" {
		return note
	}
	return fmt.Sprintf("Check %d: %s", o.answers, note)
}

// Resend is the question to ask before the same bytes are sent again
// (ResendQuestion), or why they are not: a write found applied, or a
// check still running.
func (o *Outcome) Resend() (prompt, refused string) {
	if o.checking {
		return "", "Checking whether the service applied it: wait for the answer."
	}
	return ResendQuestion(o.verdict)
}

// AskResend is the review before the same bytes are sent again: body
// (the write's, as drawn) under "Send again? POST" and the path its kind
// names (core/write), and the question Resend gives. It is nil, with
// why, when they are not sent again: a write found applied, a check still
// running. A yes to it is the screen's to act on: Resent, then the send.
func (o *Outcome) AskResend(body []string) (*WriteReview, string) {
	prompt, refused := o.Resend()
	if refused != "" {
		return nil, refused
	}
	k, _ := write.Of(o.sent.Op)
	q := o.ctx.Confirm(o.sent.Op+" resend", prompt)
	return NewWriteReview(o.ctx, "Send again? POST "+k.Path(o.sent.Ref), "The body, exactly as it will be sent:", body, q), ""
}

// Resent records that the same bytes go again (Recorder.Resent); the next
// Lost follows with the new write if its answer is lost too.
func (o *Outcome) Resent() {
	if o.rec != nil {
		o.rec.Resent(o.sent)
	}
}

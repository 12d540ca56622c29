package views

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"allot/core/act"
	"allot/core/write"
	"allot/internal/sanitize"
	"allot/views/widget"
)

// LostWrite is the page of a write whose answer was lost, read back from
// the journal, for the writes without a form of their own to return to
// (a creative's registration or upload URL, a claim request): the exact
// body sent, what the check found (it runs when the page opens, and
// settles the write when it can tell), and, for a write that may be sent
// again, r to send the same bytes after a yes, as every write screen
// does: the question is a WriteReview, the send a Sending, what the check
// found an Outcome.
type LostWrite struct {
	ctx  *Context
	kind string // its kind's label, e.g. "claim request"
	path string // where it was sent, as the service names it
	at   time.Time

	// Resend sends the same body again through the recorder and says what
	// came of it in lines; nil when the write is not sent again from here,
	// and why in NoResend.
	Resend   func(context.Context, *act.Recorder) ([]string, error)
	NoResend string

	body   []string // the body sent, safe to draw
	lines  []string // body, wrapped to the width
	scroll widget.Scroll

	outcome Outcome      // the write, and what its check found
	asking  *WriteReview // the question before a resend; nil when none is asked
	sending Sending[[]string]
	result  []string // what the resend answered
	hint    string

	// top and bottom are what is drawn above and below the body, laid out
	// by fit when the size or what they say changes.
	top, bottom   []string
	width, height int
}

var (
	lostKeyCheck  = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check again"))
	lostKeyResend = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resend (asks first)"))
	lostKeyClose  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
)

// NewLostWrite is the page of sent, a write whose answer was lost at at,
// as its kind says (core/write): what it is called, where it was
// sent, and whether it is sent again (Resend: the same bytes through
// act.Recorder.Resend) or why not (NoResend). It checks the write as it
// opens.
func NewLostWrite(ctx *Context, sent act.Sent, at time.Time) *LostWrite {
	k, _ := write.Of(sent.Op)
	w := &LostWrite{ctx: ctx, kind: k.Label(sent.Ref), path: k.Path(sent.Ref), at: at, body: PrettyBody(sent.Body), width: 80, height: 20}
	w.scroll.Styles = ctx.Styles
	w.outcome.Reopen(ctx, sent)
	if k.NoResend != "" {
		w.NoResend = sentence(k.NoResend)
	} else if ctx.Session != nil { // a context of no session sends nothing
		client := ctx.Session.API
		// Journaled as a new write, with no id of the first's.
		again := act.Sent{Op: sent.Op, Ref: sent.Ref, Body: sent.Body}
		w.Resend = func(c context.Context, rec *act.Recorder) ([]string, error) { return rec.Resend(c, client, again) }
	}
	w.SetSize(w.width, w.height)
	return w
}

// sentence is s with a capital and a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (w *LostWrite) Title() string {
	if w.result != nil {
		return "Sent again: " + w.kind
	}
	return "Unknown " + w.kind
}

// heading is the page's first line: what is known of the write. Once the
// resend answered, that is no longer an unknown outcome, though what was
// found of the first write stays below it.
func (w *LostWrite) heading() string {
	if w.result != nil {
		return "Sent again: " + w.kind
	}
	return "Outcome unknown: " + w.kind
}

func (w *LostWrite) Init() tea.Cmd { return w.check() }

func (w *LostWrite) Mode() Mode {
	return Mode{Busy: w.outcome.Checking() || w.sending.Busy(), Writing: w.sending.Busy(), TakesKeys: w.asking != nil, OwnsEsc: w.asking != nil || w.sending.Busy()}
}

func (w *LostWrite) Update(msg tea.Msg) tea.Cmd {
	if w.outcome.Update(msg) {
		w.fit() // what the check found is above the body
		return nil
	}
	switch msg := msg.(type) {
	case spinner.TickMsg, Answer[[]string]:
		answer, cmd := w.sending.Update(msg)
		if answer != nil {
			return w.sent(answer)
		}
		return cmd
	case widget.ConfirmMsg:
		if w.asking == nil || !w.asking.Confirm.Answers(msg) {
			return nil
		}
		w.asking = nil
		if !msg.Yes {
			return nil
		}
		return w.send()
	case tea.KeyMsg:
		return w.key(msg)
	}
	return nil
}

func (w *LostWrite) key(k tea.KeyMsg) tea.Cmd {
	if w.asking != nil {
		return w.asking.Update(k)
	}
	if w.scroll.Key(k) {
		return nil
	}
	cmd, _ := w.bindings().Dispatch(k)
	return cmd
}

// bindings are the page's keys but while the question is asked, which
// its dispatch, the footer and the help read: c and r while they act,
// the body's scroll (w.scroll.Key moves it) and esc, which the dashboard
// answers by closing the page. A write found applied is not sent again:
// r is not offered, and says so when pressed.
func (w *LostWrite) bindings() widget.Bindings {
	scroll := widget.Binding{Key: w.scroll.Help("scroll the body"), Short: true}
	closing := widget.Binding{Key: lostKeyClose, Short: true}
	switch {
	case w.sending.Busy():
		return widget.Bindings{scroll}
	case w.result != nil:
		return widget.Bindings{scroll, closing}
	}
	resend := lostKeyResend
	resend.SetEnabled(w.Resend != nil)
	return widget.Bindings{
		{Key: lostKeyCheck, Short: true, Run: w.check},
		{Key: resend, Short: !w.outcome.Applied(), Run: func() tea.Cmd { w.askResend(); return nil }},
		scroll, closing,
	}
}

// check asks again whether the write was applied; "Checking…" takes the
// place of what the last check found.
func (w *LostWrite) check() tea.Cmd {
	cmd := w.outcome.Check()
	w.fit()
	return cmd
}

// askResend shows the body again and asks, default No, before it is sent
// a second time; a write the check found applied is not sent again.
func (w *LostWrite) askResend() {
	asking, refused := w.outcome.AskResend(w.body)
	if refused != "" {
		w.hint = refused
		w.fit()
		return
	}
	w.asking = asking
	w.asking.SetSize(w.width, w.height)
}

// send sends the same bytes again, journaled, off the UI goroutine.
func (w *LostWrite) send() tea.Cmd {
	w.outcome.Resent()
	w.hint = ""
	resend, rec := w.Resend, w.ctx.Recorder
	cmd := w.sending.Start(func(c context.Context) ([]string, error) { return resend(c, rec) })
	w.fit() // the spinner is below the body
	return cmd
}

// sent shows what the resend came to: its answer, the service's refusal,
// or, lost again, the new write, checked at once.
func (w *LostWrite) sent(answer *Answer[[]string]) tea.Cmd {
	defer w.fit() // the answer is below the body
	first := w.outcome.Sent()
	// A resend that was not journaled has no id: its check cannot tell.
	if written, lost := answer.Lost(act.Sent{Op: first.Op, Ref: first.Ref, Body: first.Body}); lost {
		w.at = w.ctx.Now()
		w.hint = "The second request's answer was lost too."
		return w.outcome.Lost(w.ctx, written)
	}
	if answer.Err != nil {
		// No form to mark: the refusal is said as its error says it (a
		// service's lists a bounded few of the fields it names).
		w.hint = "Sent again: " + sanitize.Line(answer.Err.Error())
		return nil
	}
	w.result = answer.Value
	return nil
}

func (w *LostWrite) SetSize(width, height int) {
	w.width, w.height = max(width, 20), max(height, 6)
	w.lines = widget.Hardwrap(w.lines, w.body, w.width)
	w.scroll.SetLines(w.lines)
	if w.asking != nil {
		w.asking.SetSize(w.width, w.height)
	}
	w.fit()
}

// fit lays out what is above the body (what happened, what the check
// found) and below it (the resend's answer, a hint) and gives the body the
// rows they leave. It runs when one of them or the size changes.
func (w *LostWrite) fit() {
	// A paragraph takes at most four lines: what a hostile service answers
	// does not push the body off the page.
	para := func(s string) []string { return strings.Split(widget.Page(s, w.width, 4), "\n") }
	w.top = []string{w.ctx.Styles.Title.Render(sanitize.Truncate(w.heading(), w.width))}
	w.top = append(w.top, para(fmt.Sprintf("The request was sent at %s and no readable answer came: the service may or may not have applied it.",
		SentAt(w.at)))...)
	if note := w.outcome.Note(); note != "" {
		w.top = append(w.top, para(note)...)
	}
	if w.Resend == nil && w.NoResend != "" {
		w.top = append(w.top, para(w.NoResend)...)
	}
	w.top = append(w.top, w.ctx.Styles.Muted.Render(sanitize.Truncate("Body sent (POST "+w.path+"):", w.width)))

	w.bottom = w.bottom[:0]
	if w.result != nil || w.hint != "" {
		w.bottom = append(w.bottom, "")
	}
	for _, l := range w.result {
		// What the service and the journal hold (a URL, an allocation id).
		w.bottom = append(w.bottom, para(sanitize.Line(l))...)
	}
	if w.hint != "" {
		w.bottom = append(w.bottom, para(w.hint)...)
	}
	w.scroll.SetSize(w.width, max(w.height-len(w.top)-len(w.sendingLines())-len(w.bottom), 1))
}

// sendingLines say that the resend is on its way, below the body; drawn
// by View, not fit, so that the spinner turns without a new layout.
func (w *LostWrite) sendingLines() []string {
	if !w.sending.Busy() {
		return nil
	}
	return []string{"", w.sending.Spinner() + " Sending it again…"}
}

func (w *LostWrite) View() string {
	if w.asking != nil {
		return w.asking.View()
	}
	out := append(append([]string(nil), w.top...), w.scroll.View()...)
	out = append(append(out, w.sendingLines()...), w.bottom...)
	return widget.Fit(strings.Join(out, "\n"), w.width, w.height)
}

// Keys are the page's keys: c and r while they act, the question's while
// it is asked.
func (w *LostWrite) Keys() widget.Bindings {
	if w.asking != nil {
		return w.asking.Bindings()
	}
	return w.bindings()
}

// ResendQuestion is the question asked before a write whose answer was
// lost is sent again, by what its check found (nil: no check has told
// yet); for a write the check found applied, no question but why it is not
// sent again.
func ResendQuestion(v *act.Verdict) (prompt, refused string) {
	switch {
	case v != nil && v.Check == act.Applied:
		return "", "The service applied it: it is not sent again."
	case v != nil && v.Check == act.NotApplied:
		return "Send this request again? The check found the first was not applied.", ""
	case v != nil:
		return "Send this request again? allot cannot tell whether the first was applied: do so only if the service's operators say it was not.", ""
	}
	return "Send this request again? The first may have been applied: answer n and press c to check first.", ""
}

// CheckedNote says in a sentence what the check of a write whose answer
// was lost found (or why it could not), for the screen that sent it.
func CheckedNote(v act.Verdict, err error) string {
	switch {
	case err != nil:
		return "The check whether the service applied it failed: " + sanitize.Line(err.Error()) + "."
	case v.Check == act.Applied:
		return "Checked: the service applied it. It is not sent again."
	case v.Check == act.NotApplied:
		return "Checked: the service did not apply it. Sending it again applies it once."
	}
	return "allot cannot check: " + v.Reason + ". Ask the service's operators before sending it again."
}

// CheckSent runs rec.Check of w under root (the screens' root, not the
// write's context) with a time of its own: the write's own time may be
// spent (its answer was lost to a timeout), and the check waits for the
// service to finish what it still serves.
func CheckSent(root context.Context, rec *act.Recorder, w act.Sent) (act.Verdict, error) {
	c, cancel := context.WithTimeout(root, RequestTimeout)
	defer cancel()
	return rec.Check(c, w)
}

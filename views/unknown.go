package views

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/act"
	"allot/internal/sanitize"
	"allot/views/widget"
)

// LostWrite is the page of a write whose answer was lost, read back from
// the journal, for the writes without a form of their own to return to
// (a creative's registration or upload URL, a claim request): the exact
// body sent, what the check found (it runs when the page opens, and
// settles the write when it can tell), and, for a write that may be sent
// again, r to send the same bytes after a yes.
type LostWrite struct {
	ctx  *Context
	kind string // what the write is, e.g. "creative registration"
	path string // where it was sent, as the service names it
	at   time.Time

	// Resend sends the same body again through the recorder and says what
	// came of it in lines; nil when the write is not sent again from here,
	// and why in NoResend.
	Resend   func(context.Context, *act.Recorder) ([]string, error)
	NoResend string

	pretty []string
	lines  []string // pretty, wrapped
	scroll widget.Scroll

	outcome Outcome // the write, and what its check found
	seq     int     // of the resend
	confirm *widget.Confirm
	sending bool
	result  []string // what the resend answered
	hint    string

	width, height int
}

var (
	lostKeyCheck  = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check again"))
	lostKeyResend = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resend (asks first)"))
	lostKeyClose  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
)

// NewLostWrite is the page of sent, a write of kind whose answer was lost
// at at; it checks the write as it opens.
func NewLostWrite(ctx *Context, kind string, sent act.Sent, at time.Time) *LostWrite {
	w := &LostWrite{ctx: ctx, kind: kind, path: sent.Op, at: at, pretty: PrettyBody(sent.Body), width: 80, height: 20}
	w.outcome.Reopen(ctx.Recorder, sent)
	if sent.Op == act.OpClaim {
		w.path = "allocations/" + sent.Ref + "/claim"
	}
	w.SetSize(w.width, w.height)
	return w
}

func (w *LostWrite) Title() string { return "Unknown " + w.kind }

func (w *LostWrite) Init() tea.Cmd { return w.outcome.Check() }

func (w *LostWrite) Mode() Mode {
	return Mode{Busy: w.outcome.Checking() || w.sending, TakesKeys: w.confirm != nil, OwnsEsc: w.confirm != nil || w.sending}
}

// lostResent is what sending the write again came to.
type lostResent struct {
	seq   int
	lines []string
	err   error
}

func (w *LostWrite) Update(msg tea.Msg) tea.Cmd {
	defer w.fit() // what is above and below the body changes with msg
	if w.outcome.Update(msg) {
		return nil
	}
	switch msg := msg.(type) {
	case lostResent:
		if msg.seq != w.seq || !w.sending {
			return nil
		}
		w.sending = false
		var unknown *act.UnknownError
		switch {
		case msg.err == nil:
			w.result = msg.lines
		case errors.As(msg.err, &unknown):
			// Lost again: the new write is the one to check.
			w.at = w.ctx.Now()
			w.hint = "The second request's answer was lost too."
			return w.outcome.Lost(w.ctx.Recorder, unknown.Sent())
		default:
			w.hint = "Sent again, and refused: " + sanitize.Line(msg.err.Error())
		}
	case widget.ConfirmMsg:
		if !w.confirm.Answers(msg) {
			return nil
		}
		w.confirm = nil
		w.fit()
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
	if w.scroll.Key(k) {
		return nil
	}
	if w.confirm != nil {
		return w.confirm.Update(k)
	}
	if w.result != nil || w.sending {
		return nil
	}
	switch {
	case key.Matches(k, lostKeyCheck):
		return w.outcome.Check()
	case key.Matches(k, lostKeyResend):
		w.askResend()
	}
	return nil
}

// askResend asks, default No, before the same body is sent again; a write
// the check found applied is not sent again.
func (w *LostWrite) askResend() {
	w.hint = ""
	switch {
	case w.Resend == nil:
		w.hint = w.NoResend
		return
	}
	prompt, refused := w.outcome.Resend()
	if refused != "" {
		w.hint = refused
		return
	}
	// Tagged by the kind of write, as the write screens tag theirs.
	tag := "creative-resend"
	if w.outcome.Sent().Op == act.OpClaim {
		tag = "claim-resend"
	}
	w.confirm = w.ctx.Confirm(tag, prompt, "POST "+w.path+" with exactly the body above")
	w.confirm.SetWidth(min(w.width, 80))
	w.fit()
}

func (w *LostWrite) send() tea.Cmd {
	w.outcome.Resent()
	w.seq = NextSeq()
	w.sending, w.hint = true, ""
	seq, resend, rec := w.seq, w.Resend, w.ctx.Recorder
	return func() tea.Msg {
		c, cancel := context.WithTimeout(context.Background(), RequestTimeout)
		defer cancel()
		lines, err := resend(c, rec)
		return lostResent{seq: seq, lines: lines, err: err}
	}
}

func (w *LostWrite) SetSize(width, height int) {
	w.width, w.height = max(width, 20), max(height, 6)
	w.lines = widget.Hardwrap(w.lines, w.pretty, w.width)
	w.scroll.SetLines(w.lines)
	if w.confirm != nil {
		w.confirm.SetWidth(min(w.width, 80))
	}
	w.fit()
}

// fit gives the body the rows the rest of the page leaves, so that the
// question, when asked, is drawn whole below it.
func (w *LostWrite) fit() {
	rows := w.height - len(w.head()) - len(w.foot())
	w.scroll.SetSize(w.width, max(rows, 1))
}

// head is what is above the body: what happened, and what the check found.
func (w *LostWrite) head() []string {
	page := func(s string) []string { return strings.Split(widget.Page(s, w.width, 4), "\n") }
	out := []string{w.ctx.Styles.Title.Render(sanitize.Truncate("Outcome unknown: "+w.kind, w.width))}
	out = append(out, page(fmt.Sprintf("The request was sent at %s and no readable answer came: the service may or may not have applied it.",
		w.at.UTC().Format("15:04:05 MST on 2 Jan 2006")))...)
	var found string
	switch {
	case w.outcome.Checking():
		found = "Checking whether the service applied it…"
	case w.outcome.CheckErr() != "":
		found = "The check failed: " + w.outcome.CheckErr() + ". c checks again."
	case w.outcome.Verdict() != nil:
		found = CheckedNote(*w.outcome.Verdict(), nil)
	}
	if found != "" {
		out = append(out, page(found)...)
	}
	return append(out, w.ctx.Styles.Muted.Render(sanitize.Truncate("Body sent (POST "+w.path+"):", w.width)))
}

// foot is what is below the body: the resend's answer, a hint, the keys or
// the question.
func (w *LostWrite) foot() []string {
	page := func(s string) []string { return strings.Split(widget.Page(s, w.width, 0), "\n") }
	var out []string
	switch {
	case w.sending:
		out = append(out, "", "Sending it again…")
	case w.result != nil:
		out = append(out, "")
		for _, l := range w.result {
			out = append(out, page(l)...)
		}
	}
	if w.hint != "" {
		out = append(out, page(w.hint)...)
	}
	if w.confirm != nil {
		return append(out, strings.Split(w.confirm.View(), "\n")...)
	}
	keys := "esc close"
	if w.result == nil && !w.sending {
		keys = "c check again · r resend (asks first) · ↑/↓ scroll · esc close"
	}
	return append(out, "", w.ctx.Styles.Muted.Render(sanitize.Truncate(keys, w.width)))
}

func (w *LostWrite) View() string {
	out := append(w.head(), w.scroll.View()...)
	out = append(out, w.foot()...)
	if len(out) > w.height {
		// Never cut the question off: the body gave up its rows in fit,
		// and on a page too short for the rest the top goes first.
		out = out[len(out)-w.height:]
	}
	return strings.Join(out, "\n")
}

func (w *LostWrite) ShortHelp() []key.Binding {
	switch {
	case w.confirm != nil:
		return w.confirm.ShortHelp()
	case w.result != nil || w.sending:
		return []key.Binding{lostKeyClose}
	}
	return []key.Binding{lostKeyCheck, lostKeyResend, w.scroll.Help("scroll the body"), lostKeyClose}
}

func (w *LostWrite) FullHelp() [][]key.Binding { return [][]key.Binding{w.ShortHelp()} }

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

// CheckSent runs rec.Check of w with a time of its own: the write's own
// time may be spent (its answer was lost to a timeout), and the check
// waits for the service to finish what it still serves.
func CheckSent(rec *act.Recorder, w act.Sent) (act.Verdict, error) {
	c, cancel := context.WithTimeout(context.Background(), RequestTimeout)
	defer cancel()
	return rec.Check(c, w)
}

package views

import (
	"errors"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/views/widget"
	"allot/wallet"
)

// FormSign is the shape of the screens that end in signing, the claim and
// the stake: a form, the work that prepares the calls, then the
// clear-signing flow. The screens embed it and add their own fields and
// steps.
type FormSign struct {
	Ctx  *Context
	Form *widget.Form
	keys formKeys
	// Working says what is being prepared while it runs; empty when idle.
	Working string
	Flow    *signing
	// prev is the flow before this one (SignAfter): its outcome stays
	// above, and it comes back when this one ends with nothing sent.
	prev *signing
	Err  error
	Seq  int
	// Reqs numbers the flows' requests, and those of the screen embedding
	// it (a stake's plan, a claim's request).
	Reqs Requests
	// head is what the screen draws above the form or the flow, line by
	// line; the flow has the height it leaves, once wrapped.
	head func() string
	// Foot, when set, is drawn below the flow: what its outcome left
	// (the allowance a failed stake left behind).
	Foot func() string
	// Caution, when set, is said in the signing question under what the
	// transactions cost: what cannot be undone once they are mined (a
	// transfer of beneficiary).
	Caution string

	Width, height int
}

// formKeys are the keys of a screen whose form submits.
type formKeys struct {
	Submit, Cancel key.Binding
}

// NewFormSign is a form of fields under head, submitted with the key named
// submit, ready to sign what the screen builds from it.
func NewFormSign(ctx *Context, head func() string, submit string, fields ...*widget.FormField) FormSign {
	f := FormSign{Ctx: ctx, head: head, Form: widget.NewForm(fields...), keys: formKeys{
		Submit: key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter", submit)),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}}
	f.Form.Styles = ctx.Styles
	return f
}

// Withhold takes the submit key away: a form that can send nothing (a
// claim its vester refuses) offers only esc, and enter does nothing.
func (f *FormSign) Withhold() { f.keys.Submit.SetEnabled(false) }

func (f *FormSign) Mode() Mode {
	// Working may be a read the user asked for (what claim-all has to
	// claim); it counts as a write, the user's own step on the form.
	busy := f.Working != "" || f.Flow != nil && f.Flow.busy()
	return Mode{Busy: busy, Writing: busy, TakesKeys: f.Flow == nil || f.Flow.capturing()}
}
func (f *FormSign) Init() tea.Cmd { return f.Form.Focus(0) }

func (f *FormSign) SetSize(width, height int) {
	f.Width, f.height = width, height
	f.Form.SetSize(width, len(f.Form.Fields())+2)
	if f.Flow != nil {
		f.Flow.setSize(width, height-f.chrome())
	}
}

// chrome counts the lines of the head, and of an earlier flow's outcome
// (SignAfter), as drawn at the width: a line wider than the screen takes
// more than one.
func (f *FormSign) chrome() int {
	head := f.head()
	if f.prev != nil {
		head += f.prev.viewOf(f.Ctx.Styles) + "\n"
	}
	if f.Foot != nil {
		head += f.Foot()
	}
	return LinesAt(head, f.Width)
}

// Resize sizes the flow again, at the screen's size: after the lines
// around it changed.
func (f *FormSign) Resize() { f.SetSize(f.Width, f.height) }

// FormKey handles a key while the form is shown: esc leaves, sending
// nothing; the submit key runs submit; other keys edit the form.
func (f *FormSign) FormKey(msg tea.KeyMsg, submit func() tea.Cmd) tea.Cmd {
	if f.Working != "" {
		return nil
	}
	cmd, handled := f.formKeys(submit).Dispatch(msg)
	if !handled {
		return f.Form.Update(msg)
	}
	return cmd
}

// formKeys are the form's page keys, which FormKey dispatches and Bindings
// lists, and the form's own, listed. The form's help names only what
// applies on the focused field (←/→ on a choice).
func (f *FormSign) formKeys(submit func() tea.Cmd) widget.Bindings {
	return append(widget.Bindings{
		{Key: f.keys.Submit, Short: true, Run: func() tea.Cmd { f.Err = nil; return submit() }},
		{Key: f.keys.Cancel, Short: true, Run: func() tea.Cmd { return Back }},
	}, widget.Described(f.Form.ShortHelp()...).InFooter()...)
}

// Sign starts the clear-signing flow of calls for the unlocked account,
// under the signing policy that check applies.
func (f *FormSign) Sign(subject string, ops []string, calls []wallet.Call, labels map[common.Address]string, check PolicyCheck) tea.Cmd {
	addr, _, ok := f.Ctx.Wallet.Account()
	if !ok {
		f.Err = errors.New("the account locked itself: unlock it again (u); nothing was signed")
		return nil
	}
	f.Seq = f.Reqs.Next()
	var cmd tea.Cmd
	f.Flow, cmd = newSigning(f.Ctx, f.Seq, subject, ops, calls, addr, labels, check)
	f.Flow.caution = f.Caution
	f.Flow.setSize(f.Width, f.height-f.chrome())
	return cmd
}

// SignAfter starts another signing flow once the one shown is done (the
// reset of what a stake left behind, after the stake): the earlier flow's
// outcome stays above it, and comes back when the new flow ends with
// nothing sent.
func (f *FormSign) SignAfter(subject string, ops []string, calls []wallet.Call, labels map[common.Address]string, check PolicyCheck) tea.Cmd {
	f.prev, f.Err = f.Flow, nil // before Sign sizes the new flow below it
	cmd := f.Sign(subject, ops, calls, labels, check)
	if f.Flow == f.prev {
		f.prev = nil // not started: the account locked itself
	}
	return cmd
}

// Finished returns the statuses of what the flow shown sent, once each is
// final (or following stopped); false while it runs, or when it sent
// nothing.
func (f *FormSign) Finished() ([]wallet.Status, bool) {
	if f.Flow == nil || f.Flow.stage != signDone || len(f.Flow.statuses) == 0 {
		return nil, false
	}
	return f.Flow.statuses, true
}

// After says the flow shown came after another (SignAfter).
func (f *FormSign) After() bool { return f.prev != nil }

// Sent says the flow sent a transaction: what the head said before is
// history from then on.
func (f *FormSign) Sent() bool { return f.Flow != nil && len(f.Flow.statuses) > 0 }

// UpdateFlow passes msg to the signing flow. When the flow ends with
// nothing sent (declined, or failed before the first transaction left),
// the form comes back with the reason, to change and try again.
func (f *FormSign) UpdateFlow(msg tea.Msg) tea.Cmd {
	cmd, _ := f.Flow.update(msg)
	if f.Flow.stage != signDone || len(f.Flow.statuses) > 0 {
		return cmd
	}
	if f.prev != nil {
		// A flow after another: that one comes back, with the reason.
		f.Err, f.Flow, f.prev = f.Flow.err, f.prev, nil
		return cmd
	}
	f.Err, f.Flow = f.Flow.err, nil
	return tea.Batch(cmd, f.Form.Focus(f.Form.Focused()))
}

// Draw draws the head, then the flow, or else question, or else the form
// with its hint and what is being prepared; then the error.
func (f *FormSign) Draw(hint string, question *widget.Confirm) string {
	st := f.Ctx.Styles
	var b strings.Builder
	b.WriteString(f.head())
	if f.prev != nil && f.Flow != nil {
		b.WriteString(f.prev.viewOf(st) + "\n")
	}
	switch {
	case f.Flow != nil:
		b.WriteString(f.Flow.viewOf(st))
		if f.Foot != nil {
			b.WriteString(f.Foot())
		}
	case question != nil:
		b.WriteString(question.View() + "\n")
	default:
		b.WriteString(f.Form.View() + "\n\n" + st.Muted.Render(hint) + "\n")
		if f.Working != "" {
			b.WriteString(f.Working + "…\n")
		}
	}
	if f.Err != nil {
		b.WriteString("\n✗ " + sanitize.Line(f.Err.Error()) + "\n")
	}
	return widget.Page(b.String(), f.Width, f.height)
}

// Bindings are the keys of the step shown, for the screen's Keys: the
// flow's, question's, or the form's.
func (f *FormSign) Bindings(question *widget.Confirm) widget.Bindings {
	switch {
	case f.Flow != nil:
		return f.Flow.bindings()
	case question != nil:
		return question.Bindings()
	}
	return f.formKeys(nil) // listed, not run: no submit needed
}

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

// formSign is the shape of the screens that end in signing, the claim and
// the stake: a form, the work that prepares the calls, then the
// clear-signing flow. The screens embed it and add their own fields and
// steps.
type formSign struct {
	ctx  *Context
	form *widget.Form
	keys formKeys
	// working says what is being prepared while it runs; empty when idle.
	working string
	flow    *signing
	err     error
	seq     int
	// head is what the screen draws above the form or the flow, line by
	// line; the flow has the height it leaves, once wrapped.
	head func() string

	width, height int
}

// formKeys are the keys of a screen whose form submits.
type formKeys struct {
	Submit, Cancel key.Binding
}

func newFormSign(ctx *Context, head func() string, submit string, fields ...*widget.FormField) formSign {
	f := formSign{ctx: ctx, head: head, form: widget.NewForm(fields...), keys: formKeys{
		Submit: key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter", submit)),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}}
	f.form.Styles = ctx.Styles
	return f
}

func (f *formSign) Busy() bool      { return f.working != "" || f.flow != nil && f.flow.busy() }
func (f *formSign) Capturing() bool { return f.flow == nil || f.flow.capturing() }
func (f *formSign) Narrowed() bool  { return false }
func (f *formSign) Init() tea.Cmd   { return f.form.Focus(0) }

func (f *formSign) SetSize(width, height int) {
	f.width, f.height = width, height
	f.form.SetSize(width, len(f.form.Fields())+2)
	if f.flow != nil {
		f.flow.setSize(width, height-f.chrome())
	}
}

// chrome counts the lines of the head as drawn at the width: a line wider
// than the screen takes more than one.
func (f *formSign) chrome() int { return linesAt(f.head(), f.width) }

// formKey handles a key while the form is shown: esc leaves, sending
// nothing; the submit key runs submit; other keys edit the form.
func (f *formSign) formKey(msg tea.KeyMsg, submit func() tea.Cmd) tea.Cmd {
	if f.working != "" {
		return nil
	}
	switch {
	case key.Matches(msg, f.keys.Cancel):
		return back
	case key.Matches(msg, f.keys.Submit):
		f.err = nil
		return submit()
	}
	return f.form.Update(msg)
}

// sign starts the clear-signing flow of calls for the unlocked account,
// under the signing policy that check applies.
func (f *formSign) sign(subject string, ops []string, calls []wallet.Call, labels map[common.Address]string, check policyCheck) tea.Cmd {
	addr, _, ok := f.ctx.Wallet.Account()
	if !ok {
		f.err = errors.New("the account locked itself: unlock it again (u); nothing was signed")
		return nil
	}
	f.seq = nextSeq()
	var cmd tea.Cmd
	f.flow, cmd = newSigning(f.ctx, f.seq, subject, ops, calls, addr, labels, check)
	f.flow.setSize(f.width, f.height-f.chrome())
	return cmd
}

// updateFlow passes msg to the signing flow. When the flow ends with
// nothing sent (declined, or failed before the first transaction left),
// the form comes back with the reason, to change and try again.
func (f *formSign) updateFlow(msg tea.Msg) tea.Cmd {
	cmd, _ := f.flow.update(msg)
	if f.flow.stage != signDone || len(f.flow.statuses) > 0 {
		return cmd
	}
	f.err, f.flow = f.flow.err, nil
	return tea.Batch(cmd, f.form.Focus(f.form.Focused()))
}

// view draws the head, then the flow, or else question, or else the form
// with its hint and what is being prepared; then the error.
func (f *formSign) view(hint string, question *widget.Confirm) string {
	st := f.ctx.Styles
	var b strings.Builder
	b.WriteString(f.head())
	switch {
	case f.flow != nil:
		b.WriteString(f.flow.viewOf(st))
	case question != nil:
		b.WriteString(question.View() + "\n")
	default:
		b.WriteString(f.form.View() + "\n\n" + st.Muted.Render(hint) + "\n")
		if f.working != "" {
			b.WriteString(f.working + "…\n")
		}
	}
	if f.err != nil {
		b.WriteString("\n✗ " + sanitize.Line(f.err.Error()) + "\n")
	}
	return widget.Page(b.String(), f.width, f.height)
}

// help is the keys of the step shown: the flow's, question's, or the
// form's.
func (f *formSign) help(question *widget.Confirm) []key.Binding {
	switch {
	case f.flow != nil:
		return f.flow.help()
	case question != nil:
		return question.ShortHelp()
	}
	return append([]key.Binding{f.keys.Submit, f.keys.Cancel}, f.form.Keys.ShortHelp()...)
}

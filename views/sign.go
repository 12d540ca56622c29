package views

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/core/sign"
	"allot/internal/sanitize"
	"allot/views/widget"
	"allot/wallet"
)

// signing is the clear-signing flow of the claim and stake screens: the
// calls are decoded, checked and built into transactions; the review shows
// each one whole (function, arguments, value, fees, every warning); one
// yes signs and sends them all; then each is followed until it is final.
type signing struct {
	ctx     *Context
	subject string
	ops     []string
	// caution is said in the question, under what it costs: what no one
	// can take back once it is mined (FormSign.Caution); "" none.
	caution string

	stage signStage
	// prepared is the calls decoded, checked and built (sign.Review):
	// its Refusal says why they may not be signed, shown with them.
	prepared sign.Review
	signed   []act.Signed
	statuses []wallet.Status // per signed transaction, as followed
	done     int             // how many are final
	err      error
	confirm  *widget.Confirm
	// pin is the pin question of a refusal for a missing pin (pin.go);
	// pinErr why pinning failed; pinning while it runs.
	pin     *pinAsk
	pinErr  error
	pinning bool
	// build checks the calls and builds them again (after a pin).
	build  func() tea.Cmd
	review widget.Scroll
	width  int
	height int
	seq    int
}

type signStage int

const (
	signBuilding signStage = iota
	signReview
	signSending
	signFollowing
	signDone
)

// PolicyCheck applies the signing policy to a claim's or a stake's calls,
// held to the pins sign.Prepare read (session.ClaimCheck, StakeCheck).
type PolicyCheck = sign.Check

// newSigning prepares calls, which the signer from is to sign, on the one
// signing path (sign.Prepare): a refusal is journaled and shown with the
// calls, and nothing can be signed. labels name contracts the profile's
// tokens do not list (the token a pool stakes), so that calling them is
// no surprise.
func newSigning(ctx *Context, seq int, subject string, ops []string, calls []wallet.Call, from common.Address, labels map[common.Address]string, check PolicyCheck) (*signing, tea.Cmd) {
	s := &signing{ctx: ctx, subject: subject, ops: ops, seq: seq, width: 80}
	s.review.Styles = ctx.Styles
	req := sign.Request{Op: ops[len(ops)-1], Subject: subject, Calls: calls, From: from, Labels: labels, Check: check}
	sess, rec := ctx.Session, ctx.Recorder
	s.build = func() tea.Cmd {
		return Load(ctx, seq, func(c context.Context) (sign.Review, error) { return sign.Prepare(c, sess, rec, req) })
	}
	return s, s.build()
}

// sent is the answer of signing and sending.
type sent struct {
	signed   []act.Signed
	statuses []wallet.Status // of those sent, in order; fewer when one failed
}

func (s *signing) setSize(width, height int) {
	s.width, s.height = width, height
	if s.confirm != nil {
		s.confirm.SetWidth(min(width, 80))
	}
	// Below the screen's own lines (height excludes them) come the
	// review's title and the question; the review scrolls in the rest,
	// its status row included.
	question := 7 // the box of a question not asked yet, as usual
	switch {
	case s.confirm != nil:
		question = lipgloss.Height(s.confirm.View())
	case s.pinQuestion() != nil:
		s.pin.confirm.SetWidth(min(width, 80))
		question = lipgloss.Height(s.pin.confirm.View())
	case s.pinPending():
		question = lipgloss.Height(widget.Page(s.pinPendingLine(), width, 0))
	case s.prepared.Refusal != nil:
		question = lipgloss.Height(widget.Page(s.refusalLine(), width, 0))
	}
	if s.pinErr != nil {
		question += lipgloss.Height(widget.Page(s.pinErrLine(), width, 0))
	}
	s.review.SetSize(width, max(height-1-question, 3))
	s.fill()
}

// update handles the flow's messages; it reports whether msg was its own.
func (s *signing) update(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := s.updatePin(msg); ok {
		return cmd, true
	}
	switch msg := msg.(type) {
	case Loaded[sign.Review]:
		if msg.Seq != s.seq {
			return nil, false
		}
		if msg.Err != nil {
			s.err, s.stage = msg.Err, signDone
			return nil, true
		}
		s.prepared, s.stage = msg.Value, signReview
		var cmd tea.Cmd
		var refused *wallet.RefusedError
		if errors.As(s.prepared.Refusal, &refused) {
			cmd = s.askPin(refused)
		} else if s.prepared.Refusal == nil {
			details := []string{wallet.WorstCaseLine(s.prepared.Drafts)}
			if s.caution != "" {
				details = append(details, s.caution)
			}
			s.confirm = s.ctx.Confirm("sign", s.question(), details...)
		}
		s.setSize(s.width, s.height) // the question's height is known now
		return cmd, true
	case widget.ConfirmMsg:
		if !s.confirm.Answers(msg) || s.stage != signReview {
			return nil, false
		}
		s.confirm = nil
		if !msg.Yes {
			s.err, s.stage = errNotSigned, signDone
			return nil, true
		}
		return s.send(), true
	case Loaded[sent]:
		if msg.Seq != s.seq {
			return nil, false
		}
		s.signed, s.statuses, s.err = msg.Value.signed, msg.Value.statuses, msg.Err
		if len(s.statuses) == 0 {
			s.stage = signDone
			return nil, true
		}
		s.stage = signFollowing
		return follow(s.ctx, s.signed[:len(s.statuses)]), true
	case TxStatusMsg:
		for i := range s.statuses {
			if s.statuses[i].Hash == msg.Status.Hash {
				s.statuses[i] = msg.Status
				if msg.Final {
					s.done++
					if msg.Err != nil && s.err == nil {
						s.err = msg.Err
					}
				}
			}
		}
		if s.stage == signFollowing && s.done >= len(s.statuses) {
			s.stage = signDone
		}
		return nil, false // every screen may want it
	case tea.KeyMsg:
		// The review scrolls while it asks, and when refused, where it
		// asks nothing but is still to be read whole.
		if s.stage == signReview && !s.pinCrowds() && s.review.Key(msg) {
			return nil, true
		}
		if q := s.asked(); q != nil {
			return q.Update(msg), true // the question's own Bindings
		}
		if s.pinPending() {
			// Every key is held from the screen below, which it was not
			// meant for (a y or an enter typed for the question to come).
			cmd, _ := s.bindings().Dispatch(msg)
			return cmd, true
		}
	}
	return nil, false
}

var errNotSigned = errors.New("not signed: nothing was sent")

// send signs every draft and sends them in order, off the UI goroutine.
func (s *signing) send() tea.Cmd {
	signer := s.ctx.Wallet.Signer()
	if signer == nil {
		s.err, s.stage = errors.New("the account locked itself before signing: unlock it again (u); nothing was signed"), signDone
		return nil
	}
	s.stage = signSending
	rec, chain := s.ctx.Recorder, s.ctx.Session.Chain
	subject, ops, prepared := s.subject, s.ops, s.prepared
	return Write(s.seq, func(ctx context.Context) (sent, error) {
		signed, err := sign.Sign(rec, subject, ops, prepared, signer)
		if err != nil {
			return sent{}, err
		}
		statuses, err := rec.Send(ctx, chain, subject, signed)
		return sent{signed: signed, statuses: statuses}, err
	})
}

func (s *signing) question() string {
	if len(s.prepared.Drafts) == 1 {
		return "Sign and send this transaction?"
	}
	return fmt.Sprintf("Sign and send these %d transactions, in this order?", len(s.prepared.Drafts))
}

// fill writes the review: why the policy refused the calls, or what it
// established; then each call, and its transaction when it was built.
func (s *signing) fill() {
	var b strings.Builder
	p := s.prepared
	var refused *wallet.RefusedError
	if errors.As(p.Refusal, &refused) {
		b.WriteString("REFUSED by the signing policy; nothing can be signed:\n")
		for _, r := range refused.Reasons {
			writeItem(&b, "  - ", sanitize.Line(r), s.width)
		}
		writeItem(&b, "  ", pinsFrom(p), s.width)
		b.WriteString("\n")
	} else if len(p.Facts) > 0 {
		b.WriteString("Checked by the signing policy:\n")
		writeLines(&b, p.Facts, s.width)
		writeItem(&b, "  ", pinsFrom(p), s.width)
		b.WriteString("\n")
	}
	for i, sum := range p.Summaries {
		fmt.Fprintf(&b, "Transaction %d of %d (%s): %s\n", i+1, len(p.Summaries), s.ops[i], sanitize.Line(sum.Title()))
		lines := sum.Lines()
		if i < len(p.Drafts) {
			lines = append(lines, p.Drafts[i].Lines()...)
		}
		writeLines(&b, lines, s.width)
		for _, w := range sum.Warnings {
			writeItem(&b, "  WARNING: ", sanitize.Line(w.Message), s.width)
		}
		if len(sum.Warnings) == 0 {
			b.WriteString("  no warnings\n")
		}
		b.WriteString("\n")
	}
	text := strings.TrimRight(widget.Page(b.String(), s.width, 0), "\n")
	s.review.SetLines(strings.Split(text, "\n"))
}

// pinsFrom says where the policy read the pins it held the calls to, at
// this review: a pin edited anywhere counts from the next review on.
func pinsFrom(p sign.Review) string {
	return "pins read at this review from " + sanitize.Line(p.PinsFrom)
}

// refusalLine is the line below a refused review, which lists the
// reasons itself.
func (s *signing) refusalLine() string {
	var refused *wallet.RefusedError
	if errors.As(s.prepared.Refusal, &refused) {
		return "✗ not signed: the signing policy refused it, for the reasons above"
	}
	return "✗ " + sanitize.Line(s.prepared.Refusal.Error())
}

// writeLines writes labelled lines, indented, their values aligned.
func writeLines(b *strings.Builder, lines []wallet.Line, total int) {
	width := 0
	for _, l := range lines {
		width = max(width, len(l.Label))
	}
	indent := strings.Repeat(" ", width+4)
	for _, l := range lines {
		value := sanitize.Line(l.Value)
		if room := total - len(indent); room >= 20 {
			// A long value wraps under itself, not under the labels; a
			// hash too long for a line is cut in equal parts.
			value = strings.Join(widget.WrapWords(value, room), "\n"+indent)
		}
		fmt.Fprintf(b, "  %-*s  %s\n", width, l.Label, value)
	}
}

// writeItem writes text after prefix, a long text wrapping under itself
// rather than at the left edge, where it would read as a line of its own.
func writeItem(b *strings.Builder, prefix, text string, total int) {
	indent := strings.Repeat(" ", len(prefix))
	if room := total - len(indent); room >= 20 {
		text = strings.Join(widget.WrapWords(text, room), "\n"+indent)
	}
	b.WriteString(prefix + text + "\n")
}

// viewOf draws the flow at its stage.
func (s *signing) viewOf(st widget.Styles) string {
	var b strings.Builder
	switch s.stage {
	case signBuilding:
		b.WriteString("Decoding the calls and building the transactions…\n")
	case signReview:
		if !s.pinCrowds() {
			b.WriteString(st.Title.Render("Review: exactly what will be signed") + "\n")
			for _, l := range s.review.View() {
				b.WriteString(l + "\n")
			}
		}
		switch {
		case s.pinQuestion() != nil:
			b.WriteString(s.pin.confirm.View() + "\n")
		case s.pinPending():
			b.WriteString(s.pinPendingLine() + "\n")
		case s.pinning:
			b.WriteString("Pinning…\n")
		case s.prepared.Refusal != nil:
			b.WriteString(s.refusalLine() + "\n")
		case s.confirm != nil:
			b.WriteString(s.confirm.View() + "\n")
		}
		if s.pinErr != nil {
			b.WriteString(s.pinErrLine() + "\n")
		}
	case signSending:
		b.WriteString("Signing and sending…\n")
	}
	for i, st := range s.statuses {
		// Wrapped here, a hash cut in equal parts (WrapWords), not where
		// the screen's width runs out.
		b.WriteString(strings.Join(widget.WrapWords(statusLine(s.signed[i].Op, st), s.width), "\n") + "\n")
	}
	if s.err != nil {
		b.WriteString("✗ " + sanitize.Line(s.err.Error()) + "\n")
	}
	if s.stage == signFollowing || s.stage == signDone && len(s.statuses) > 0 {
		b.WriteString(st.Muted.Render("The Transactions screen (4) follows them too.") + "\n")
	}
	return b.String()
}

// statusLine says where a sent transaction is, in words.
func statusLine(op string, st wallet.Status) string {
	h := st.Hash.Hex()
	switch st.State {
	case wallet.StatePending:
		if st.Reorged {
			return fmt.Sprintf("%s %s: %s, pending again…", op, h, wallet.Reorg)
		}
		return fmt.Sprintf("%s %s: pending, waiting to be mined…", op, h)
	case wallet.StateQueued:
		return fmt.Sprintf("%s %s: QUEUED, not pending: %s", op, h, st.QueuedNote())
	case wallet.StateReverted:
		reason := st.RevertReason
		if reason == "" {
			reason = "the node gave no reason"
		}
		return fmt.Sprintf("%s %s: REVERTED in block %d: %s", op, h, st.Block, sanitize.Line(reason))
	case wallet.StateDropped:
		if st.Reorged {
			return fmt.Sprintf("%s %s: %s, and dropped: it will not be mined", op, h, wallet.Reorg)
		}
		return fmt.Sprintf("%s %s: dropped: it will not be mined", op, h)
	}
	if st.Mined() {
		return fmt.Sprintf("%s %s: %s, mined in block %d, %d confirmation(s), gas used %d", op, h, st.State, st.Block, st.Confirmations, st.GasUsed)
	}
	return fmt.Sprintf("%s %s: %s", op, h, st.State)
}

// busy is true while the flow waits on the network.
func (s *signing) busy() bool {
	return s.stage == signBuilding || s.stage == signSending || s.stage == signFollowing || s.pinning
}

// capturing is true while the review asks its question, or the pin
// question, and while what that one shows is read: a key meant for the
// question must not reach the dashboard (esc closing the page, a tab
// key) or the screen below.
func (s *signing) capturing() bool { return s.confirm != nil || s.pin != nil }

// asked is the question asked: whether to sign, or whether to pin; nil
// while none is.
func (s *signing) asked() *widget.Confirm {
	if s.confirm != nil {
		return s.confirm
	}
	return s.pinQuestion()
}

// bindings are the flow's keys, which its dispatch (update) and the
// screen's footer and help read: the question's while one is asked, esc
// while the pin question is read, and the review's scroll (s.review.Key
// moves it).
func (s *signing) bindings() widget.Bindings {
	scroll := widget.Binding{Key: s.review.Help("scroll the review"), Short: true, Label: true}
	switch q := s.asked(); {
	case s.pinPending():
		return widget.Bindings{{Key: keyPinDontAsk, Short: true, Run: s.dropPin}, scroll}
	case q != nil:
		// The review scrolls above the question while it is asked.
		return append(q.Bindings(), scroll)
	case s.stage == signReview:
		return widget.Bindings{scroll}
	}
	return nil
}

// pinErrLine says why a pin failed.
func (s *signing) pinErrLine() string { return "✗ " + sanitize.Line(s.pinErr.Error()) }

// restart forgets the review, to prepare it again (after a pin).
func (s *signing) restart() { s.prepared, s.stage = sign.Review{}, signBuilding }

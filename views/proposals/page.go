package proposals

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/proposal"
)

// page is one Safe proposal: its Safe and nonce, each call the Safe makes
// decoded, the three hashes a co-signer compares with what Safe{Wallet}
// or a hardware wallet shows, the owners with their signatures, and what
// the unlocked key can do with it: s signs it as an owner, after the
// signing policy's review (the CLI's `allot safe sign`); x executes it
// once enough owners signed, on the one signing path of every
// transaction (review, policy, journal, followed until mined), as
// `allot safe exec` does. A key that cannot says why. The proposal is
// read again on the lists' rhythm.
type page struct {
	views.FormSign
	sp session.SafeProposal

	calls   [][]wallet.Line // each call decoded; nil until read
	callErr error
	scroll  widget.Scroll

	// decodeSeq is the calls' decoding, readSeq the latest read of the
	// proposal, actSeq the latest step of signing or executing.
	decodeSeq, readSeq, actSeq int
	reading                    bool
	// working says what of signing or executing runs, "" when nothing.
	working string
	// ask is the signature's question, after the policy's review.
	ask *widget.Confirm
	// refusal is the policy's, or why signing or executing failed.
	refusal error
	note    string // what the last act did
	marking bool   // the executed transaction is being recorded
	// facts are what the signing policy established, shown while ask is.
	facts  []wallet.Line
	height int
}

// NewPage is the page of the proposal sp, as the list read it.
func NewPage(ctx *views.Context, sp session.SafeProposal) views.Screen {
	p := &page{sp: sp}
	p.FormSign = views.NewFormSign(ctx, p.flowHead, "")
	p.scroll.Styles = ctx.Styles
	return p
}

// Acting: the page signs and sends.
func (p *page) Acting() {}

func (p *page) Title() string { return "Safe proposal" }

func (p *page) Mode() views.Mode {
	if p.Flow != nil {
		return p.FormSign.Mode()
	}
	return views.Mode{Busy: p.working != "", Writing: p.working != "" || p.marking, TakesKeys: p.ask != nil, OwnsEsc: p.ask != nil}
}

func (p *page) Init() tea.Cmd { return p.decode() }

// next numbers a request of the page's: an answer to any but the latest
// of its kind is dropped.
func (p *page) next() int { return p.Reqs.Next() }

// decodedCalls are the proposal's calls decoded as the review decodes
// them, each call's lines.
type decodedCalls [][]wallet.Line

// decode decodes the Safe's calls against the profile's contracts and
// the chain (the vester's fee, the token a pool stakes).
func (p *page) decode() tea.Cmd {
	s, prop := p.Ctx.Session, p.sp.Proposal
	p.decodeSeq = p.next()
	return views.Load(p.Ctx, p.decodeSeq, func(c context.Context) (decodedCalls, error) {
		decoded, err := s.DecodeSafeCalls(c, prop.Safe, prop.Calls)
		if err != nil {
			return nil, err
		}
		var out decodedCalls
		for _, d := range decoded {
			out = append(out, d.Lines())
		}
		return out, nil
	})
}

// reread reads the proposal and its Safe again: another process's
// signature, a nonce that moved.
func (p *page) reread() tea.Cmd {
	if p.reading || p.working != "" {
		return nil
	}
	s, file := p.Ctx.Session, p.sp.File
	p.reading, p.readSeq = true, p.next()
	return views.Load(p.Ctx, p.readSeq, func(c context.Context) (session.SafeProposal, error) { return s.ReadProposal(c, file) })
}

func (p *page) Update(msg tea.Msg) tea.Cmd {
	if p.Flow != nil {
		return p.updateFlow(msg)
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if p.ask != nil {
			return p.ask.Update(msg)
		}
		if p.scroll.Key(msg) {
			return nil
		}
		cmd, _ := p.bindings().Dispatch(msg)
		return cmd
	case widget.ConfirmMsg:
		if !p.ask.Answers(msg) {
			return nil
		}
		p.ask = nil
		if !msg.Yes {
			p.note = "Not signed: you did not answer yes."
			return nil
		}
		return p.sign()
	case views.RefreshMsg:
		if msg.Chain {
			return nil
		}
		return p.reread()
	case views.Loaded[decodedCalls]:
		if msg.Seq == p.decodeSeq {
			p.calls, p.callErr = msg.Value, msg.Err
		}
	case views.Loaded[session.SafeProposal]:
		return p.settle(msg)
	}
	return p.updateActs(msg)
}

// settle shows the proposal read again, or signed, or marked executed.
func (p *page) settle(msg views.Loaded[session.SafeProposal]) tea.Cmd {
	switch msg.Seq {
	case p.readSeq:
		p.reading = false
		if msg.Err == nil && msg.Value.Proposal != nil {
			p.sp = msg.Value
		}
	case p.actSeq:
		p.working = ""
		if err := readErr(msg); err != nil {
			p.refusal = err
			return nil
		}
		p.sp = msg.Value
	}
	return nil
}

// readErr is why a proposal read again cannot be shown: the read's
// failure, or a file that no longer holds a proposal.
func readErr(msg views.Loaded[session.SafeProposal]) error {
	if msg.Err == nil && msg.Value.Proposal == nil {
		return msg.Value.Err
	}
	return msg.Err
}

func (p *page) SetSize(width, height int) {
	p.height = height
	p.FormSign.SetSize(width, height)
	if p.ask != nil {
		p.ask.SetWidth(min(width, 80))
	}
}

func (p *page) View() string {
	if p.Flow != nil {
		return p.Draw("", nil)
	}
	lines := p.lines()
	foot := append([]string{""}, p.actLines(max(p.Width, 20))...)
	if p.ask != nil {
		// The question's box is seen whole: the review scrolls above it.
		lines, foot = p.reviewLines(max(p.Width, 20)), strings.Split(p.ask.View(), "\n")
	}
	p.scroll.SetSize(p.Width, max(p.height-len(foot), 3))
	p.scroll.SetLines(lines)
	return strings.Join(append(p.scroll.View(), foot...), "\n")
}

// flowHead is the line above the execution's signing flow.
func (p *page) flowHead() string {
	return p.Ctx.Styles.Title.Render("Execute Safe proposal "+short(p.sp.Proposal.Hashes.SafeTx.Hex())) + "\n\n"
}

func short(h string) string { return h[:10] + "…" + h[len(h)-8:] }

// Keys are the signing flow's while it runs, the question's while it
// asks, else the page's own.
func (p *page) Keys() widget.Bindings {
	switch {
	case p.Flow != nil:
		return p.Bindings(nil)
	case p.ask != nil:
		return p.ask.Bindings()
	}
	return p.bindings()
}

// lines are the page's text at its width.
func (p *page) lines() []string {
	st, w, prop, sp := p.Ctx.Styles, max(p.Width, 20), p.sp.Proposal, p.sp
	out := []string{st.Title.Render("Safe proposal: " + sanitize.Truncate(act(prop), w-15)), ""}
	add := func(label, value string) { out = append(out, fitField(label, value, w)...) }
	add("Safe", fmt.Sprintf("%s (%s), %d of %d owners sign", prop.Safe.Hex(), sanitize.Line(prop.SafeVersion), prop.Threshold, len(prop.Owners)))
	add("Nonce", prop.Tx.Nonce.String())
	switch state := (Row{sp}).State(); {
	case sp.Err != nil:
		add("State", state+": "+sanitize.Line(sp.Err.Error()))
	case sp.State == proposal.Missing:
		add("State", sanitize.Line(sp.Detail)) // "1 of 2 signatures: 1 more needed"
	default:
		add("State", state+": "+sanitize.Line(sp.Detail))
	}
	out = append(out, "")
	out = append(out, p.callLines(w)...)
	out = append(out, "", st.Title.Render("What the owners sign"))
	add("Transaction", fmt.Sprintf("%s to %s", prop.Tx.Operation, prop.Tx.To.Hex()))
	add("Domain hash", prop.Hashes.Domain.Hex())
	add("Message hash", prop.Hashes.Message.Hex())
	add("safeTxHash", prop.Hashes.SafeTx.Hex())
	out = append(out, st.Muted.Render(widget.Truncate("Compare these hashes with what Safe{Wallet} or your hardware wallet shows.", w)), "")
	out = append(out, st.Title.Render(fmt.Sprintf("Signatures: %d of %d", len(prop.Signatures), prop.Threshold)))
	out = append(out, p.ownerLines(w)...)
	return append(out, fitField("File", sanitize.Line(sp.Path), w)...)
}

// reviewLines are what the owner signs and what the signing policy
// checked of it, above the signature's question.
func (p *page) reviewLines(w int) []string {
	st, prop := p.Ctx.Styles, p.sp.Proposal
	out := []string{st.Title.Render("Sign as an owner: " + sanitize.Truncate(act(prop), w-19)), ""}
	out = append(out, fitField("Safe", fmt.Sprintf("%s on chain %d, nonce %s", prop.Safe.Hex(), prop.ChainID, prop.Tx.Nonce), w)...)
	out = append(out, fitField("Domain hash", prop.Hashes.Domain.Hex(), w)...)
	out = append(out, fitField("Message hash", prop.Hashes.Message.Hex(), w)...)
	out = append(out, fitField("safeTxHash", prop.Hashes.SafeTx.Hex(), w)...)
	out = append(out, st.Muted.Render(widget.Truncate("Compare these hashes with what Safe{Wallet} or your hardware wallet shows.", w)), "",
		st.Title.Render("Checked by the signing policy"))
	for _, l := range p.facts {
		out = append(out, widget.WrapWords("  "+sanitize.Line(l.Label)+": "+sanitize.Line(l.Value), w)...)
	}
	return out
}

// callLines are each call the Safe makes, decoded.
func (p *page) callLines(w int) []string {
	st, prop := p.Ctx.Styles, p.sp.Proposal
	how := "one call, made as it is"
	if len(prop.Calls) > 1 {
		how = fmt.Sprintf("%d calls in order, through the MultiSendCallOnly %s", len(prop.Calls), prop.MultiSend.Hex())
	}
	out := []string{st.Title.Render("What the Safe does: ") + widget.Truncate(how, max(w-20, 10))}
	switch {
	case p.callErr != nil:
		return append(out, widget.WrapWords("✗ The calls could not be decoded: "+sanitize.Line(p.callErr.Error()), w)...)
	case p.calls == nil:
		return append(out, "  Decoding the calls…")
	}
	for i, lines := range p.calls {
		out = append(out, fmt.Sprintf("  call %d of %d", i+1, len(p.calls)))
		for _, l := range lines {
			out = append(out, fitField("    "+sanitize.Line(l.Label), sanitize.Line(l.Value), w)...)
		}
	}
	return out
}

// ownerLines are the Safe's owners, those who signed marked, and the
// unlocked key's.
func (p *page) ownerLines(w int) []string {
	st, prop := p.Ctx.Styles, p.sp.Proposal
	me, _, unlocked := p.Ctx.Wallet.Account()
	var out []string
	for _, o := range prop.Owners {
		line := "    " + o.Hex()
		if prop.Signed(o) {
			line = "  ✓ " + o.Hex() + st.Muted.Render("  signed")
		}
		if unlocked && o == me {
			line += st.Muted.Render("  (your unlocked key)")
		}
		out = append(out, widget.Truncate(line, w))
	}
	return out
}

// fitField is "label: value" in width: on one line when it fits, else
// the value on the lines under the label, wrapped at spaces. A value of
// one word (a hash, an address) wider than the width is shortened in
// its middle, visibly, never cut in two.
func fitField(label, value string, width int) []string {
	one := label + ": " + value
	if len(one) <= width || strings.Contains(value, "\x1b") {
		return []string{widget.Truncate(one, width)}
	}
	words := strings.Split(value, " ")
	for i, word := range words {
		words[i] = middle(word, width-2)
	}
	out := []string{label + ":"}
	for _, l := range widget.WrapWords(strings.Join(words, " "), width-2) {
		out = append(out, "  "+l)
	}
	return out
}

// middle shortens s to width by an ellipsis in its middle.
func middle(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	if width < 5 {
		return widget.Truncate(s, max(width, 1))
	}
	tail := (width - 1) / 2
	return string(r[:width-1-tail]) + "…" + string(r[len(r)-tail:])
}

// labels name the Safe in the execution's review.
func labels(safeAddr common.Address) map[common.Address]string {
	return map[common.Address]string{safeAddr: "the Safe"}
}

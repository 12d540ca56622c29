package proposals

import (
	"context"
	"errors"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/proposal"
)

var (
	keySign = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sign as an owner"))
	keyExec = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "execute"))
)

// bindings are the page's keys, which its dispatch, footer and help read:
// a disabled one says why.
func (p *page) bindings() widget.Bindings {
	return widget.Bindings{
		{Key: keySign, Short: true, Run: p.review, Disabled: p.whyNotSign,
			Long: "sign the safeTxHash with the unlocked key, an owner's, after the signing policy's review"},
		{Key: keyExec, Short: true, Run: p.execute, Disabled: p.whyNotExec,
			Long: "send execTransaction with the unlocked key, which pays the gas, once enough owners signed"},
		p.exportBinding(),
		{Key: p.scroll.Help("scroll"), Label: true, Short: true},
	}
}

// unlocked is the unlocked key, or why there is none.
func (p *page) unlocked() (common.Address, string) {
	if err := p.Ctx.Session.Writable(); err != nil {
		return common.Address{}, err.Error()
	}
	addr, _, ok := p.Ctx.Wallet.Account()
	if !ok {
		return addr, "no key is unlocked: unlock an owner's key first (u)"
	}
	return addr, ""
}

// closed says why nothing can be done with the proposal any more, "".
func (p *page) closed() string {
	switch {
	case p.working != "":
		return "wait: " + p.working
	case p.sp.Err != nil:
		return "its Safe could not be read: " + sanitize.Line(p.sp.Err.Error())
	case p.sp.State == proposal.Executed:
		return "executed already"
	case p.sp.State == proposal.Stale:
		return "stale nonce: " + sanitize.Line(p.sp.Detail)
	case p.sp.State == proposal.Changed:
		return "owners changed: " + sanitize.Line(p.sp.Detail)
	}
	return ""
}

// whyNotSign says why the unlocked key cannot sign, "" when it can.
func (p *page) whyNotSign() string {
	if why := p.closed(); why != "" {
		return why
	}
	me, why := p.unlocked()
	switch {
	case why != "":
		return why
	case !p.sp.Safe.IsOwner(me):
		return "not an owner: the unlocked key " + me.Hex() + " is not an owner of the Safe"
	case p.sp.Proposal.Signed(me):
		return "already signed by the unlocked key " + me.Hex()
	}
	return ""
}

// whyNotExec says why the unlocked key cannot execute, "" when it can.
func (p *page) whyNotExec() string {
	if why := p.closed(); why != "" {
		return why
	}
	if _, why := p.unlocked(); why != "" {
		return why
	}
	if p.sp.State != proposal.Ready {
		return "threshold not met: " + sanitize.Line(p.sp.Detail)
	}
	return ""
}

// actLines say what the unlocked key can do here, and why not.
func (p *page) actLines(w int) []string {
	st := p.Ctx.Styles
	var out []string
	if p.working != "" {
		out = append(out, p.working+"…")
	}
	if p.note != "" {
		out = append(out, widget.WrapWords(sanitize.Line(p.note), w)...)
	}
	if p.refusal != nil {
		out = append(out, p.refusalLines(w)...)
	}
	for _, b := range []struct {
		key, what string
		why       func() string
	}{{"s", "sign as an owner", p.whyNotSign}, {"x", "execute", p.whyNotExec}} {
		line := b.key + "  " + b.what
		if why := b.why(); why != "" {
			line = st.Muted.Render(line + ": not now, " + why)
		}
		out = append(out, widget.WrapWords(line, w)...)
	}
	return out
}

// refusalLines are the policy's reasons, or the failure, one per line.
func (p *page) refusalLines(w int) []string {
	var refused *wallet.RefusedError
	if !errors.As(p.refusal, &refused) {
		return widget.WrapWords("✗ "+sanitize.Line(p.refusal.Error()), w)
	}
	out := []string{"✗ REFUSED by the signing policy; nothing was signed:"}
	for _, r := range refused.Reasons {
		out = append(out, widget.WrapWords("  - "+sanitize.Line(r), w)...)
	}
	return out
}

// review runs the signing policy on the Safe transaction, as `allot safe
// sign` does, before asking to sign; a refusal is journaled.
func (p *page) review() tea.Cmd {
	s, rec, sp := p.Ctx.Session, p.Ctx.Recorder, p.sp
	prop := sp.Proposal
	p.working, p.refusal, p.note, p.actSeq = "The signing policy reviews the Safe transaction", nil, "", p.next()
	return views.Load(p.Ctx, p.actSeq, func(c context.Context) (*wallet.SafeApproval, error) {
		a, err := s.CheckSafeTx(c, sp.Safe, prop.Act, prop.Calls, prop.MultiSend, prop.Tx)
		var refused *wallet.RefusedError
		if errors.As(err, &refused) {
			return nil, rec.Refused("safe "+prop.Act.Op, prop.Hashes.SafeTx.Hex(), err)
		}
		return a, err
	})
}

// signed is the proposal once the owner's signature is in its file.
type signed struct{ session.SafeProposal }

// sign signs the safeTxHash with the unlocked key and writes the file
// back. It signs the file as it is now, not as it was shown: a signature
// another owner added since is kept.
func (p *page) sign() tea.Cmd {
	me, why := p.unlocked()
	if why != "" {
		p.refusal = errors.New("not signed: " + why)
		return nil
	}
	store, err := p.Ctx.Wallet.Store(p.Ctx.Session)
	if err != nil {
		p.refusal = err
		return nil
	}
	s, rec, sp := p.Ctx.Session, p.Ctx.Recorder, p.sp
	p.working, p.actSeq = "Signing", p.next()
	return views.Load(p.Ctx, p.actSeq, func(c context.Context) (signed, error) {
		now, err := s.ReadProposal(c, sp.File)
		if err == nil && now.Proposal == nil {
			err = now.Err
		}
		if err != nil {
			return signed{}, err
		}
		if now.Proposal.Hashes != sp.Proposal.Hashes {
			return signed{}, errors.New("the file holds another proposal since it was reviewed: nothing was signed")
		}
		if err := session.SignSafeTx(rec, store, me, now.Proposal); err != nil {
			return signed{}, err
		}
		if _, err := s.SaveProposal(now.Proposal, now.Path); err != nil {
			return signed{}, err
		}
		again, err := s.ReadProposal(c, sp.File)
		return signed{again}, err
	})
}

// execute prepares the execTransaction the unlocked key sends, read from
// the file and the chain as they are now, then hands it to the signing
// flow: its review, the policy again, the question, the journal, and
// following it until it is mined.
func (p *page) execute() tea.Cmd {
	me, _ := p.unlocked()
	s, file := p.Ctx.Session, p.sp.File
	p.working, p.refusal, p.note, p.actSeq = "Reading the proposal and its Safe again", nil, "", p.next()
	return views.Load(p.Ctx, p.actSeq, func(c context.Context) (execution, error) {
		now, err := s.ReadProposal(c, file)
		if err == nil && now.Err != nil {
			err = now.Err
		}
		if err != nil {
			return execution{}, err
		}
		if err := now.Proposal.Executable(now.Safe); err != nil {
			return execution{}, fmt.Errorf("not executed: %w", err)
		}
		call, check, err := s.SafeExec(c, now.Proposal, now.Safe, me)
		return execution{sp: now, call: call, check: check}, err
	})
}

// wrote tells the list a proposal's file changed.
func wrote() tea.Msg { return changed{} }

// execution is an execTransaction ready for the signing flow.
type execution struct {
	sp    session.SafeProposal
	call  wallet.Call
	check views.PolicyCheck
}

// updateActs takes the answers of the steps of signing and executing.
func (p *page) updateActs(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case views.Loaded[*wallet.SafeApproval]:
		if msg.Seq != p.actSeq {
			return nil
		}
		p.working = ""
		if msg.Err != nil {
			p.refusal = msg.Err
			return nil
		}
		prop := p.sp.Proposal
		me, _ := p.unlocked()
		p.facts = msg.Value.Facts
		p.ask = p.Ctx.Confirm("safe sign", fmt.Sprintf("Sign the safeTxHash %s as %s?", short(prop.Hashes.SafeTx.Hex()), me.Hex()),
			"Your signature is one of the "+fmt.Sprint(prop.Threshold)+" the Safe needs; nothing is sent to the chain.")
		p.ask.SetWidth(min(p.Width, 80))
	case views.Loaded[signed]:
		if msg.Seq != p.actSeq {
			return nil
		}
		p.working = ""
		if msg.Err != nil {
			p.refusal = msg.Err
			return nil
		}
		p.sp = msg.Value.SafeProposal
		p.note = fmt.Sprintf("Signed: %d of %d signatures. Send the file on to the other owners: %s", len(p.sp.Proposal.Signatures), p.sp.Proposal.Threshold, sanitize.Line(p.sp.Path))
		return wrote
	case views.Loaded[execution]:
		if msg.Seq != p.actSeq {
			return nil
		}
		p.working = ""
		if msg.Err != nil {
			p.refusal = msg.Err
			return nil
		}
		p.sp = msg.Value.sp
		prop := p.sp.Proposal
		cmd := p.Sign(prop.Hashes.SafeTx.Hex(), []string{"safe exec"}, []wallet.Call{msg.Value.call}, labels(prop.Safe), msg.Value.check)
		if p.Flow == nil { // not started: the key locked itself
			p.refusal, p.Err = p.Err, nil
		}
		return cmd
	}
	return nil
}

// updateFlow passes msg to the execution's signing flow; once its
// transaction is mined, the proposal records it, and the page shows the
// proposal again, executed.
func (p *page) updateFlow(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(views.Loaded[session.SafeProposal]); ok && m.Seq == p.actSeq {
		p.marking, p.Flow = false, nil
		if err := readErr(m); err != nil {
			p.refusal = fmt.Errorf("the transaction was mined, and could not be recorded in the proposal: %w", err)
			return nil
		}
		p.sp, p.note = m.Value, "Executed: "+sanitize.Line(m.Value.Detail)
		return wrote
	}
	cmd := p.UpdateFlow(msg)
	if p.Flow == nil {
		// Declined, or failed before anything was sent: the page again,
		// with why.
		p.refusal, p.Err = p.Err, nil
		return cmd
	}
	statuses, done := p.Finished()
	if !done || p.marking || len(statuses) != 1 || statuses[0].State != wallet.StateSuccess {
		return cmd
	}
	s, file, hash := p.Ctx.Session, p.sp.File, statuses[0].Hash
	p.marking, p.actSeq = true, p.next()
	return tea.Batch(cmd, views.Load(p.Ctx, p.actSeq, func(c context.Context) (session.SafeProposal, error) {
		return s.MarkExecuted(c, file, hash)
	}))
}

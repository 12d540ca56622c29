package proposals

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/proposal"
)

var (
	keyCopyHash = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy the safeTxHash"))
	keyEdit     = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the form"))
	keyOpenProp = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the proposal"))
)

func (p *propose) Mode() views.Mode {
	busy := p.Working != "" || p.signing
	switch {
	case p.done != nil:
		return views.Mode{}
	case p.listing():
		// The list of a batch's acts takes single keys, not text: ? is
		// the dashboard's; esc asks before the acts are dropped.
		return views.Mode{Busy: busy, Writing: busy, TakesKeys: p.ask != nil, OwnsEsc: true}
	case p.review != nil:
		// esc goes back to the form, or answers no to the question.
		return views.Mode{Busy: busy, Writing: p.signing, TakesKeys: p.ask != nil, OwnsEsc: true}
	}
	return views.Mode{Busy: busy, Writing: busy, TakesKeys: true}
}

func (p *propose) SetSize(width, height int) {
	p.height = height
	p.FormSign.SetSize(width, height)
	// A stake's pools are options on lines of their own: the form has the
	// room the head, the hint and an error leave, for every field to show.
	p.Form.SetSize(width, max(height-views.LinesAt(p.head(), width)-5, len(p.Form.Fields())+2))
	if p.ask != nil {
		p.ask.SetWidth(min(width, 80))
	}
}

func (p *propose) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return p.key(msg)
	case widget.ConfirmMsg:
		if !p.ask.Answers(msg) {
			return nil
		}
		if p.discarding {
			return p.discarded(msg)
		}
		p.ask = nil
		if !msg.Yes {
			p.review, p.Err = nil, errors.New("not signed: you did not answer yes")
			return p.Form.Focus(p.Form.Focused())
		}
		return p.sign()
	case views.Loaded[[]api.Pool]:
		switch {
		case msg.Seq != p.Seq:
		case p.batch != nil:
			return p.settleBatchPools(msg)
		default:
			return p.settlePools(msg)
		}
		return nil
	case views.Loaded[[]session.SafeAccount]:
		if msg.Seq == p.Seq {
			return p.settleSafes(msg)
		}
		return nil
	case views.Loaded[*session.SafeReview]:
		if msg.Seq != p.Seq {
			return nil
		}
		p.Working = ""
		if msg.Err != nil {
			p.Err = msg.Err
			if p.batch != nil {
				p.batch.failedAt(msg.Err)
			}
			return nil
		}
		p.review, p.summaries = msg.Value, msg.Value.Decoded
		if p.review.Refusal == nil {
			prop := p.review.Proposal
			me, _ := p.owner()
			p.ask = p.Ctx.Confirm("safe propose", fmt.Sprintf("Sign the safeTxHash %s as %s?", short(prop.Hashes.SafeTx.Hex()), me.Hex()),
				fmt.Sprintf("Your signature is 1 of the %d the Safe needs; the proposal is saved for the other owners; nothing is sent to the chain.", prop.Threshold))
			// Nothing is signed that the review did not show: the hashes
			// and the policy's check are at its end.
			p.ask.Hold = func() string {
				if p.scroll.SeenEnd() {
					return ""
				}
				return "read the review to its end first (↓/pgdn): the hashes and the policy's check are below"
			}
			p.ask.SetWidth(min(p.Width, 80))
		}
		p.layout()
		p.scroll.Home() // read from its first line
		return nil
	case views.Loaded[signed]:
		if msg.Seq != p.Seq {
			return nil
		}
		p.signing = false
		if msg.Err != nil {
			p.review, p.Err = nil, msg.Err
			return p.Form.Focus(p.Form.Focused())
		}
		p.done, p.review = &msg.Value.SafeProposal, nil
		p.scroll.Home()
		text := fmt.Sprintf("proposed and signed: %d of %d signatures", len(p.done.Proposal.Signatures), p.done.Proposal.Threshold)
		return tea.Batch(wrote, func() tea.Msg { return views.StatusMsg{Text: text} })
	}
	if p.review == nil && p.done == nil && p.loadErr == nil && p.Working == "" && !p.listing() {
		return p.Form.Update(msg)
	}
	return nil
}

// key dispatches a key to the step shown: the form's, the review's (its
// question's below the screen's own), or the proposal made.
func (p *propose) key(msg tea.KeyMsg) tea.Cmd {
	if p.review == nil && p.done == nil {
		if p.batch != nil {
			return p.batchKey(msg)
		}
		if msg.Type == tea.KeyEsc && p.Working != "" {
			return views.Back // the pools read for nothing
		}
		return p.FormKey(msg, p.prepare)
	}
	if cmd, handled := p.bindings().Dispatch(msg); handled {
		return cmd
	}
	if p.scroll.Key(msg) {
		return nil
	}
	if p.ask != nil {
		return p.ask.Update(msg)
	}
	return nil
}

// bindings are the keys of the review and of the proposal made; a
// disabled one says why.
func (p *propose) bindings() widget.Bindings {
	copyHash := widget.Binding{Key: keyCopyHash, Short: true, Long: "copy the full safeTxHash, for the other owners to compare",
		Run: func() tea.Cmd { return p.Ctx.Clipboard.Copy(p.proposal().Proposal.Hashes.SafeTx.Hex()) }}
	if p.done != nil {
		return widget.Bindings{
			{Key: keyOpenProp, Short: true, Long: "open the proposal's page, as Transactions' P lists it",
				Run: func() tea.Cmd { return views.Navigate(NewPage(p.Ctx, *p.done)) }},
			copyHash,
			{Key: p.scroll.Help("scroll"), Label: true, Short: true},
		}
	}
	out := widget.Bindings{copyHash, {Key: p.scroll.Help("scroll"), Label: true, Short: true}}
	if p.ask != nil {
		return append(out, p.ask.Bindings()...)
	}
	edit := keyEdit
	if p.batch != nil {
		edit = keyBackToAll
	}
	return append(out, widget.Binding{Key: edit, Short: true, Disabled: func() string {
		if p.signing {
			return "wait: signing"
		}
		return ""
	}, Run: func() tea.Cmd { p.review = nil; return p.Form.Focus(p.Form.Focused()) }})
}

func (p *propose) Keys() widget.Bindings {
	if p.listing() && p.ask != nil {
		return p.ask.Bindings()
	}
	if p.listing() {
		return p.batchBindings()
	}
	if p.review == nil && p.done == nil {
		return p.formBindings()
	}
	return p.bindings()
}

// formBindings are the form's keys; in a batch's act form esc goes back
// to the list of acts (batchKey), and its help says so.
func (p *propose) formBindings() widget.Bindings {
	bs := p.Bindings(nil)
	if p.batch == nil || p.batch.adding == "" {
		return bs
	}
	for i, b := range bs {
		if slices.Contains(b.Key.Keys(), "esc") {
			bs[i].Key = keyBackToAll
		}
	}
	return bs
}

// proposal is the proposal shown: signed and saved, or under review.
func (p *propose) proposal() *session.SafeProposal {
	if p.done != nil {
		return p.done
	}
	return &session.SafeProposal{Proposal: p.review.Proposal, Safe: p.review.Safe}
}

// sign signs the proposal the review showed, that very one, with the
// unlocked key and saves it in the state directory, as the CLI does;
// then reads it back, with where it stands against its Safe.
func (p *propose) sign() tea.Cmd {
	me, err := p.owner()
	if err != nil {
		p.review, p.Err = nil, fmt.Errorf("not signed: %w", err)
		return nil
	}
	store, err := p.Ctx.Wallet.Store(p.Ctx.Session)
	if err != nil {
		p.review, p.Err = nil, err
		return nil
	}
	// A copy is signed: the review on show keeps reading its own.
	s, rec, prop := p.Ctx.Session, p.Ctx.Recorder, *p.review.Proposal
	prop.Signatures = slices.Clone(prop.Signatures)
	p.signing, p.Seq = true, p.Reqs.Next()
	return views.Load(p.Ctx, p.Seq, func(c context.Context) (signed, error) {
		if err := session.SignSafeTx(rec, store, me, &prop); err != nil {
			return signed{}, err
		}
		if _, err := s.SaveProposal(&prop, ""); err != nil {
			return signed{}, err
		}
		sp, err := s.ReadProposal(c, prop.Hashes.SafeTx.Hex()+".json")
		if err == nil && sp.Proposal == nil {
			err = sp.Err
		}
		return signed{sp}, err
	})
}

func (p *propose) View() string {
	if p.listing() {
		return p.batchView()
	}
	if p.review == nil && p.done == nil {
		hint := "enter builds the Safe transaction and shows it before anything is signed · esc cancels"
		switch {
		case p.loadErr != nil:
			hint = "esc goes back"
		case p.batch != nil:
			hint = "enter adds the act to the batch · esc goes back to the acts, adding nothing"
		}
		return p.Draw(hint, nil)
	}
	foot := p.layout()
	return strings.Join(append(p.scroll.View(), foot...), "\n")
}

// layout gives the review its lines and the rows the lines under it
// leave (the question, or what runs), and returns those.
func (p *propose) layout() []string {
	var foot []string
	switch {
	case p.ask != nil:
		foot = strings.Split(p.ask.View(), "\n")
	case p.signing:
		foot = []string{"", "Signing and saving the proposal…"}
	}
	p.scroll.SetLines(p.reviewOf(max(p.Width, 20)))
	p.scroll.SetSize(p.Width, max(p.height-len(foot), 3))
	return foot
}

// reviewOf is what the owner signs: the act, each call the Safe makes
// decoded, the Safe transaction's three hashes, who signs, and the
// signing policy's verdict. Once signed, the signatures and where the
// proposal is come first, then the hashes a co-signer compares.
func (p *propose) reviewOf(w int) []string {
	st, prop := p.Ctx.Styles, p.proposal().Proposal
	title := "Review the Safe's proposal: "
	if p.done != nil {
		title = "Proposed: "
	}
	out := []string{st.Title.Render(title + sanitize.Truncate(act(prop), max(w-len(title), 10))), ""}
	if p.done == nil {
		out = append(out, p.transferCaution(prop, w)...)
	}
	if p.done != nil {
		out = append(append(out, p.doneLines(w)...), "")
	}
	out = append(out, fitField("Safe", fmt.Sprintf("%s (%s) on chain %d, nonce %s, %d of %d owners sign", prop.Safe.Hex(), sanitize.Line(prop.SafeVersion), prop.ChainID, prop.Tx.Nonce, prop.Threshold, len(prop.Owners)), w)...)
	calls := append([]string{"", st.Title.Render(widget.Truncate(p.how(), w))}, p.callLines(w)...)
	if p.done == nil {
		out = append(out, calls...)
	}
	out = append(out, "", st.Title.Render("What the owners sign"))
	add := func(label, value string) { out = append(out, fitField(label, value, w)...) }
	add("Transaction", fmt.Sprintf("%s to %s", prop.Tx.Operation, prop.Tx.To.Hex()))
	add("Domain hash", prop.Hashes.Domain.Hex())
	add("Message hash", prop.Hashes.Message.Hex())
	add("safeTxHash", prop.Hashes.SafeTx.Hex())
	out = append(out, widget.WrapWords(st.Muted.Render("Compare these hashes with what Safe{Wallet} or your hardware wallet shows; c copies the safeTxHash."), w)...)
	if p.done != nil {
		return append(out, calls...)
	}
	if me, err := p.owner(); err == nil {
		add("Signed by", me.Hex()+", an owner (the unlocked key)")
	}
	return append(append(out, ""), p.verdictLines(w)...)
}

// callLines are each call the Safe makes, decoded as the review showed
// them.
func (p *propose) callLines(w int) []string {
	var out []string
	decoded := p.decoded()
	for i, d := range decoded {
		out = append(out, fmt.Sprintf("  call %d of %d", i+1, len(decoded)))
		for _, l := range d {
			out = append(out, fitField("    "+sanitize.Line(l.Label), sanitize.Line(l.Value), w)...)
		}
	}
	return out
}

// how says how the Safe makes its calls.
func (p *propose) how() string {
	prop := p.proposal().Proposal
	if len(prop.Calls) > 1 {
		return fmt.Sprintf("What the Safe does: %d calls in order, through the MultiSendCallOnly %s", len(prop.Calls), prop.MultiSend.Hex())
	}
	return "What the Safe does: one call, made as it is"
}

// decoded are the review's calls, decoded by the session (kept once
// signed).
func (p *propose) decoded() [][]wallet.Line {
	var out [][]wallet.Line
	for _, d := range p.summaries {
		out = append(out, d.Lines())
	}
	return out
}

// verdictLines are what the signing policy established, or its refusal,
// which leaves nothing to sign.
func (p *propose) verdictLines(w int) []string {
	var refused *wallet.RefusedError
	if errors.As(p.review.Refusal, &refused) {
		out := []string{"✗ REFUSED by the signing policy; nothing was signed:"}
		for _, r := range refused.Reasons {
			out = append(out, widget.WrapWords("  - "+sanitize.Line(r), w)...)
		}
		return append(out, widget.WrapWords("  pins read from "+sanitize.Line(p.Ctx.Session.PinsSource()), w)...)
	}
	out := []string{p.Ctx.Styles.Title.Render("Checked by the signing policy")}
	for _, l := range p.review.Approval.Facts {
		out = append(out, widget.WrapWords("  "+sanitize.Line(l.Label)+": "+sanitize.Line(l.Value), w)...)
	}
	return out
}

// doneLines say how many signatures the proposal has, whose, and where
// the other owners find it.
func (p *propose) doneLines(w int) []string {
	st, sp := p.Ctx.Styles, p.done
	prop := sp.Proposal
	state := fmt.Sprintf("%d of %d signatures: %s", len(prop.Signatures), prop.Threshold, Row{*sp}.State())
	if sp.State == proposal.Missing && sp.Detail != "" {
		state = sp.Detail // "1 of 2 signatures: 1 more needed"
	}
	out := []string{st.Title.Render(widget.Truncate("Signed: "+sanitize.Line(state), w))}
	out = append(out, p.ownersOf(w)...)
	out = append(out, fitField("File", sanitize.Line(sp.Path), w)...)
	return append(out, widget.WrapWords("It is listed in the proposals (Transactions, P, or :proposals), where another owner signs it (s) and any key executes it (x) once enough owners signed; send the file to owners on other machines. enter opens it.", w)...)
}

// ownersOf are the Safe's owners, those who signed marked.
func (p *propose) ownersOf(w int) []string {
	st, prop := p.Ctx.Styles, p.done.Proposal
	var out []string
	for _, o := range prop.Owners {
		line := "    " + o.Hex()
		if prop.Signed(o) {
			line = "  ✓ " + o.Hex() + st.Muted.Render("  signed")
		}
		out = append(out, widget.Truncate(line, w))
	}
	return out
}

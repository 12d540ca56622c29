package proposals

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// A batch of a Safe's acts in one Safe transaction, proposed from the
// accounts page (b on a Safe) as `allot safe batch --account SAFE --owner
// KEY` proposes it: the owner adds acts one at a time (a claim the Safe
// sends, a stake of its tokens, a transfer of an allocation it holds),
// each checked as the CLI checks its flag (session.ParseBatchAct), sees
// the list and removes what it does not want; enter has the session build
// every act as the act alone builds it and review the whole
// (session.ProposeBatch), and from there the review, the signature and
// the saved proposal are the single act's (propose_review.go).

var (
	keyActUp     = key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous act"))
	keyActDown   = key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next act"))
	keyAddClaim  = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "add a claim the Safe sends"))
	keyAddStake  = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "add a stake of the Safe's tokens"))
	keyAddXfer   = key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "add a transfer of an allocation the Safe holds"))
	keyRemoveAct = key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "remove the act selected"))
	keyMultiSend = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "change the MultiSendCallOnly"))
	keyReviewAll = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review the batch"))
	keyBackToAll = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the acts"))
)

// opMultiSend is the form that changes the MultiSendCallOnly, among the
// forms that add an act.
const opMultiSend = "multisend"

// batchOf is a batch's acts as the owner adds them.
type batchOf struct {
	acts   []session.BatchAct
	cursor int
	// adding is the act the form adds (proposal.OpClaim, OpStake,
	// OpTransfer) or opMultiSend; "" while the list is shown.
	adding string
	// failed is the act the last build could not make, from 1; 0 for
	// none.
	failed int
	// multiSend is the MultiSendCallOnly typed; zero is the canonical
	// one of the Safe's version.
	multiSend common.Address
	// options are the pools a stake chooses from, in the service's
	// order (the propose's pools hold them by option); names are their
	// names by id, for the list.
	options []string
	names   map[string]string
}

// NewSafeBatch is a batch of the Safe sa's acts, proposed by the unlocked
// key, an owner of sa.
func NewSafeBatch(ctx *views.Context, sa session.SafeAccount) views.Screen {
	p := &propose{safe: sa, batch: &batchOf{names: map[string]string{}}}
	p.FormSign = views.NewFormSign(ctx, p.head, "add it to the batch")
	p.scroll.Styles = ctx.Styles
	return p
}

// listing says the batch's list of acts is shown: no act's form, no
// review, nothing proposed yet.
func (p *propose) listing() bool {
	return p.batch != nil && p.batch.adding == "" && p.review == nil && p.done == nil
}

// batchKey is a key while the list or an act's form is shown: esc on the
// form goes back to the list, adding nothing.
func (p *propose) batchKey(msg tea.KeyMsg) tea.Cmd {
	if p.ask != nil {
		return p.ask.Update(msg)
	}
	if p.batch.adding == "" {
		cmd, _ := p.batchBindings().Dispatch(msg)
		return cmd
	}
	if msg.Type == tea.KeyEsc && p.Working == "" {
		p.batch.adding, p.Err = "", nil
		return nil
	}
	return p.FormKey(msg, p.addAct)
}

// batchBindings are the list's keys; a disabled one says why.
func (p *propose) batchBindings() widget.Bindings {
	b := p.batch
	wait := func() string {
		if p.Working != "" {
			return "wait: " + strings.ToLower(p.Working)
		}
		return ""
	}
	room := func() string {
		if len(b.acts) >= proposal.MaxCalls {
			return fmt.Sprintf("a Safe proposal holds at most %d acts: remove one first (d)", proposal.MaxCalls)
		}
		return wait()
	}
	some := func() string {
		if len(b.acts) == 0 {
			return "no act yet: c, s or t adds one"
		}
		return wait()
	}
	add := func(op string) func() tea.Cmd { return func() tea.Cmd { return p.startAdding(op) } }
	move := func(step int) func() tea.Cmd {
		return func() tea.Cmd { b.cursor = min(max(b.cursor+step, 0), len(b.acts)-1); return nil }
	}
	return widget.Bindings{
		{Key: keyActUp, Run: move(-1), Disabled: some},
		{Key: keyActDown, Run: move(1), Disabled: some},
		{Key: keyAddClaim, Short: true, Run: add(proposal.OpClaim), Disabled: room},
		{Key: keyAddStake, Short: true, Run: add(proposal.OpStake), Disabled: room},
		{Key: keyAddXfer, Short: true, Run: add(proposal.OpTransfer), Disabled: room},
		{Key: keyRemoveAct, Short: true, Run: p.removeAct, Disabled: some},
		{Key: keyMultiSend, Run: add(opMultiSend), Disabled: wait},
		{Key: keyReviewAll, Short: true, Long: "review the batch: every call decoded, the hashes and the policy's check, before anything is signed",
			Run: func() tea.Cmd { p.Err, b.failed = nil, 0; return p.build() }, Disabled: some},
		p.discardBinding(),
	}
}

// startAdding opens the form of an act of kind op; a stake's first reads
// the token's pools.
func (p *propose) startAdding(op string) tea.Cmd {
	p.Err = nil
	if op == proposal.OpStake && len(p.batch.options) == 0 {
		return p.readPools()
	}
	b := p.batch
	var fields []*widget.FormField
	switch op {
	case proposal.OpClaim:
		fields = []*widget.FormField{allocationField()}
	case proposal.OpStake:
		fields = stakeFields(b.options)
	case proposal.OpTransfer:
		fields = []*widget.FormField{allocationField(), widget.TextField("to", "New address", "0x… the wallet or Safe every later claim of it pays", func(v string) error {
			_, err := views.TransferTo(v, p.safe.Address, common.Address{})
			return err
		})}
	default:
		fields = []*widget.FormField{multiSendField()}
	}
	form := widget.NewForm(fields...)
	form.Styles = p.Ctx.Styles
	p.Form, b.adding = form, op
	p.SetSize(p.Width, p.height)
	if op == opMultiSend {
		form.Field("multisend").SetValue(b.through(p.safe.Info).Hex())
	}
	return form.Focus(0)
}

// settleBatchPools keeps the pools read for a stake, and opens its form;
// none, and the list says why, the acts kept.
func (p *propose) settleBatchPools(msg views.Loaded[[]api.Pool]) tea.Cmd {
	p.Working = ""
	switch {
	case msg.Err != nil:
		p.Err = msg.Err
		return nil
	case len(msg.Value) == 0:
		p.Err = errors.New("the token has no active pool to stake in")
		return nil
	}
	p.batch.options = p.choosePools(msg.Value)
	return p.startAdding(proposal.OpStake)
}

// addAct adds the act the form holds, checked as `safe batch` checks its
// flag; what is wrong is said and the form keeps what was typed.
func (p *propose) addAct() tea.Cmd {
	b, f := p.batch, p.Form
	if !f.Valid() {
		return nil
	}
	value := func(k string) string { return strings.TrimSpace(f.Field(k).Value()) }
	var v string
	switch b.adding {
	case opMultiSend:
		b.multiSend, b.adding = common.HexToAddress(value("multisend")), ""
		return nil
	case proposal.OpStake:
		v = p.pools[f.Field("pool").Value()].ID + "=" + value("amount")
	case proposal.OpTransfer:
		v = value("allocation") + "=" + value("to")
	default:
		v = value("allocation")
	}
	if len(b.acts) >= proposal.MaxCalls {
		p.Err = fmt.Errorf("a Safe proposal holds at most %d acts: remove one first (esc, then d)", proposal.MaxCalls)
		return nil
	}
	a, err := session.ParseBatchAct(b.adding, v)
	if err != nil {
		p.Err = err
		return nil
	}
	if b.adding == proposal.OpStake {
		b.names[a.Subject] = p.pools[f.Field("pool").Value()].Name
	}
	b.acts = append(b.acts, a)
	b.cursor, b.adding, b.failed = len(b.acts)-1, "", 0
	text := fmt.Sprintf("act %d added: %s", len(b.acts), b.describe(a))
	return func() tea.Msg { return views.StatusMsg{Text: text} }
}

// removeAct removes the act selected.
func (p *propose) removeAct() tea.Cmd {
	b := p.batch
	gone := b.describe(b.acts[b.cursor])
	b.acts = slices.Delete(b.acts, b.cursor, b.cursor+1)
	b.cursor, b.failed, p.Err = min(b.cursor, max(len(b.acts)-1, 0)), 0, nil
	return func() tea.Msg { return views.StatusMsg{Text: "removed: " + gone} }
}

// failedAt marks the act err says could not be built, if it names one.
func (b *batchOf) failedAt(err error) {
	var failed *session.BatchActError
	b.failed = 0
	if errors.As(err, &failed) {
		b.failed, b.cursor = failed.N, failed.N-1
	}
}

// through is the MultiSendCallOnly the batch's calls go through.
func (b *batchOf) through(info safe.Info) common.Address {
	if b.multiSend == (common.Address{}) {
		return safe.MultiSendCallOnlyOf(info.Version)
	}
	return b.multiSend
}

// describe says what act a does, in plain words.
func (b *batchOf) describe(a session.BatchAct) string {
	switch a.Op {
	case proposal.OpStake:
		in := a.Subject
		if name := b.names[a.Subject]; name != "" {
			in = sanitize.Truncate(name, 40) + " (" + a.Subject + ")"
		}
		return fmt.Sprintf("stake %s tokens in %s", wallet.FormatTokens(a.Amount), in)
	case proposal.OpTransfer:
		return fmt.Sprintf("transfer allocation %s: every later claim pays %s", a.Subject, a.To.Hex())
	}
	return "claim allocation " + a.Subject + ": all claimable, to its holder"
}

// batchView is the list of acts, what enter does with them, and what
// went wrong.
func (p *propose) batchView() string {
	st, b, w := p.Ctx.Styles, p.batch, max(p.Width, 20)
	head := p.head() + st.Title.Render(widget.Truncate(fmt.Sprintf("Acts, in the order the Safe makes them: %d of at most %d", len(b.acts), proposal.MaxCalls), w)) + "\n"
	var foot []string
	foot = append(foot, "")
	foot = append(foot, widget.WrapWords("Several calls go through the MultiSendCallOnly "+b.through(p.safe.Info).Hex()+" (m changes it)", w)...)
	foot = append(foot, widget.WrapWords(st.Muted.Render("c adds a claim · s a stake · t a transfer · d removes the act selected · enter reviews the batch before anything is signed · esc discards it (asked first)"), w)...)
	if p.Working != "" {
		foot = append(foot, p.Working+"…")
	}
	if p.Err != nil {
		foot = append(append(foot, ""), widget.WrapWords("✗ "+sanitize.Line(p.Err.Error()), w)...)
	}
	if p.ask != nil {
		foot = append(foot, strings.Split(p.ask.View(), "\n")...)
	}
	room := max(p.height-views.LinesAt(head, p.Width)-len(foot), 1)
	return widget.Page(head+strings.Join(append(b.lines(w, room), foot...), "\n"), p.Width, p.height)
}

// lines are the acts, the selected one marked, each wrapped at w: the
// whole acts around the selected one that room holds.
func (b *batchOf) lines(w, room int) []string {
	if len(b.acts) == 0 {
		return widget.WrapWords("none yet: c adds a claim the Safe sends, s a stake of its tokens, t a transfer of an allocation it holds", w)
	}
	acts := make([][]string, len(b.acts))
	for i, a := range b.acts {
		prefix, failed := "  ", ""
		if i == b.cursor {
			prefix = "▶ "
		}
		if i+1 == b.failed {
			failed = "✗ "
		}
		prefix += fmt.Sprintf("%2d. ", i+1)
		for _, l := range widget.WrapWords(failed+b.describe(a), max(w-6, 10)) {
			acts[i] = append(acts[i], prefix+l)
			prefix = strings.Repeat(" ", 6)
		}
	}
	lo, hi, n := b.cursor, b.cursor+1, len(acts[b.cursor])
	for grew := true; grew; {
		grew = false
		if hi < len(acts) && n+len(acts[hi]) <= room {
			n, hi, grew = n+len(acts[hi]), hi+1, true
		}
		if lo > 0 && n+len(acts[lo-1]) <= room {
			n, lo, grew = n+len(acts[lo-1]), lo-1, true
		}
	}
	return slices.Concat(acts[lo:hi]...)
}

package holder

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// claimAll claims every claimable allocation, of those followed
// (:upcoming) or of one wallet (the accounts page), after one review
// (docs/deployment.md D19): it reads what each has to claim from the
// chain and lists them; enter asks the service for each claim (allot
// builds one the service will not build for the signer); the one signing
// flow then reviews every call and the total, asks once, and follows each
// transaction until it is mined. A vester's withdraws go in one multicall
// when no fee is due on any, else one transaction each. The unlocked
// account sends and pays; the tokens go to each allocation's holder.
type claimAll struct {
	views.FormSign
	ids []string // :upcoming's followed allocations, to look at
	// holder is the wallet whose allocations are claimed (nil: those of
	// ids); looked how many allocations allot knows were looked at for it.
	holder *common.Address
	looked int

	read    bool // what each has to claim was read
	claim   []session.Claimable
	skipped []session.Skipped // of those of ids, or the holder's own
	batch   *session.ClaimBatch
	// sending is the claim requests on their way, sent as every write
	// is; outcome checks the one whose answer was lost (lost, the error).
	sending views.Sending[*session.ClaimBatch]
	outcome views.Outcome
	lost    error
}

// NewClaimAll is the "claim all claimable" page of the allocations ids
// (:upcoming's followed ones).
func NewClaimAll(ctx *views.Context, ids []string) views.Screen {
	c := &claimAll{ids: ids}
	c.FormSign = views.NewFormSign(ctx, c.headLines, "ask for these claims and review them")
	return c
}

// NewClaimAllOf is the "claim all claimable" page of the allocations
// held by holder among those allot knows (session.HolderCandidates: the
// service lists no wallet's allocations).
func NewClaimAllOf(ctx *views.Context, holder common.Address) views.Screen {
	c := &claimAll{holder: &holder}
	c.FormSign = views.NewFormSign(ctx, c.headLines, "ask for these claims and review them")
	return c
}

// Acting: the page requests claims and signs them.
func (c *claimAll) Acting() {}

func (c *claimAll) Title() string {
	if c.holder != nil {
		return "Claim all of " + short(*c.holder)
	}
	return "Claim all followed"
}

// claimableRead is what the allocations looked at have to claim now.
type claimableRead struct {
	claim   []session.Claimable
	skipped []session.Skipped
	looked  int
}

func (c *claimAll) Init() tea.Cmd {
	s, ids, holder, followed := c.Ctx.Session, c.ids, c.holder, follows(c.Ctx)
	c.Working = fmt.Sprintf("Reading what the %d followed allocations have to claim", len(ids))
	if holder != nil {
		c.Working = "Reading which allocations allot knows go to " + holder.Hex() + ", and what each has to claim"
	}
	c.Seq = c.Reqs.Next()
	return views.Load(c.Ctx, c.Seq, func(ctx context.Context) (claimableRead, error) {
		var err error
		if holder != nil {
			// Those followed with f that could not be read are said;
			// the others are looked at still.
			if ids, err = s.HolderCandidates(followed); err != nil {
				err = fmt.Errorf("the allocations followed with f could not be read, so they were not looked at: %w", err)
			}
		}
		claim, skipped := s.ClaimableOf(ctx, ids, holder)
		return claimableRead{claim, skipped, len(ids)}, err
	})
}

func (c *claimAll) Update(msg tea.Msg) tea.Cmd {
	if c.Flow != nil {
		return c.UpdateFlow(msg)
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if !c.read && msg.Type == tea.KeyEsc {
			return views.Back // the read only reads: nothing to wait for
		}
		return c.FormKey(msg, c.request)
	case views.Loaded[claimableRead]:
		if msg.Seq != c.Seq {
			return nil
		}
		c.Working, c.read, c.Err = "", true, msg.Err
		c.claim, c.looked = msg.Value.claim, msg.Value.looked
		c.skipped = slices.DeleteFunc(msg.Value.skipped, func(s session.Skipped) bool { return s.Elsewhere })
		if len(c.claim) == 0 {
			c.Withhold()
		}
		c.Resize()
		return nil
	case spinner.TickMsg, views.Answer[*session.ClaimBatch]:
		answer, cmd := c.sending.Update(msg)
		if answer == nil {
			return cmd
		}
		return c.answered(answer)
	}
	if c.outcome.Update(msg) {
		c.Working = ""
		if c.lost != nil {
			c.Err = fmt.Errorf("%w. %s", c.lost, lostClaimNote(&c.outcome))
		}
	}
	return nil
}

// answered starts signing the batch the claim requests built; a lost
// answer to one of them is checked at once, as the claim's is.
func (c *claimAll) answered(answer *views.Answer[*session.ClaimBatch]) tea.Cmd {
	c.Working = ""
	// The batch's requests are journaled one by one: a lost one's error
	// carries it, and no other is taken for it.
	if written, lost := answer.Lost(act.Sent{}); lost && written.Op != "" {
		c.Working, c.lost = "No answer came; checking whether the service took the request", answer.Err
		return c.outcome.Lost(c.Ctx, written)
	}
	if answer.Err != nil {
		c.Err = answer.Err
		return nil
	}
	c.batch = answer.Value
	signer, _, _ := c.Ctx.Wallet.Account()
	sign := c.Sign("allocations "+strings.Join(c.batch.IDs, ","), c.batch.Ops(), c.batch.Calls, nil,
		c.Ctx.Session.ClaimBatchCheck(c.batch.IDs, signer))
	if n := len(c.batch.SelfBuilt); n > 0 {
		note := fmt.Sprintf("The service would not build %d of these claims for %s; allot built the same withdraws from the proofs and the chain's claim fees: review them below.", n, signer.Hex())
		return tea.Batch(sign, func() tea.Msg { return views.StatusMsg{Text: note} })
	}
	return sign
}

// request asks the service for each claim, as the unlocked account, and
// builds the batch: nothing is signed before the review.
func (c *claimAll) request() tea.Cmd {
	if !c.read || len(c.claim) == 0 {
		return nil
	}
	signer, _, ok := c.Ctx.Wallet.Account()
	if !ok {
		c.Err = errors.New("no account is unlocked: press esc, then u (or :unlock), and claim again")
		return nil
	}
	if len(c.claim) > session.MaxBatch {
		fewer := "unfollow some (f on :upcoming)"
		if c.holder != nil {
			fewer = "claim some on their own (C on an Allocation screen), then C here again"
		}
		c.Err = fmt.Errorf("%d allocations are claimable; a batch takes at most %d: %s", len(c.claim), session.MaxBatch, fewer)
		return nil
	}
	s, rec := c.Ctx.Session, c.Ctx.Recorder
	ids := make([]string, len(c.claim))
	for i, cl := range c.claim {
		ids[i] = cl.ID
	}
	c.Working, c.lost = fmt.Sprintf("Asking the service for %d claims", len(ids)), nil
	c.outcome.Forget()
	return c.sending.Start(func(ctx context.Context) (*session.ClaimBatch, error) {
		return s.BuildClaimBatch(ctx, rec, ids, signer, "")
	})
}

func (c *claimAll) View() string {
	switch {
	case c.read && c.holder != nil && len(c.claim) == 0 && len(c.skipped) == 0:
		return c.Draw("esc goes back: nothing is sent", nil)
	case c.read && len(c.claim) == 0:
		return c.Draw("esc goes back: nothing is claimable now, so nothing is sent", nil)
	}
	return c.Draw("enter asks the service for these claims and reviews them all · esc cancels: nothing is sent", nil)
}

// headLines are the lines above the flow: which allocations, as whom,
// each claimable allocation with its amount and where it goes, and how
// many were skipped, the first of them with why.
func (c *claimAll) headLines() string {
	st := c.Ctx.Styles
	var b strings.Builder
	addr, _, ok := c.Ctx.Wallet.Account()
	if c.holder == nil {
		b.WriteString(st.Title.Render("Claim all claimable of the followed allocations") + "\n")
	} else {
		b.WriteString(st.Title.Render("Claim all claimable of "+c.holder.Hex()) + "\n")
	}
	if c.read && c.holder != nil && len(c.skipped) == 0 && len(c.claim) == 0 {
		return b.String() + c.unknownWallet() + "\n" // nothing to pay for
	}
	switch {
	case !ok:
		b.WriteString("No account is unlocked: esc, then u (or :unlock).\n")
	case c.holder == nil:
		b.WriteString("Claiming as " + addr.Hex() + ": you pay the claim fees and the gas; the tokens go to each allocation's holder\n")
	case *c.holder == addr:
		b.WriteString("Claiming as " + addr.Hex() + ": you pay the claim fees and the gas; the tokens go to you\n")
	default:
		b.WriteString("Claiming as " + addr.Hex() + ": you pay the claim fees and the gas; the tokens go to this wallet, not to you\n")
	}
	if !c.read {
		return b.String() + "\n"
	}
	if c.holder != nil && c.Flow == nil {
		b.WriteString(st.Muted.Render(c.coverage()) + "\n")
	}
	if c.Flow == nil {
		for _, cl := range c.claim {
			to := cl.Recipient.Hex()
			switch {
			case ok && cl.Recipient == addr:
				to = "you"
			case c.holder != nil:
				to = "this wallet" // its address heads the page
			}
			line := fmt.Sprintf("  %s  %s %s to %s", sanitize.Truncate(cl.ID, 36), wallet.FormatTokens(cl.Amount), sanitize.Line(cl.Unit), to)
			b.WriteString(sanitize.Truncate(line, max(c.Width, 20)) + "\n")
		}
	}
	switch n := len(c.skipped); {
	case n == 1:
		b.WriteString(st.Muted.Render(sanitize.Truncate("Skipped "+c.skipped[0].ID+": "+c.skipped[0].Why, max(c.Width, 20))) + "\n")
	case n > 1:
		b.WriteString(st.Muted.Render(sanitize.Truncate(fmt.Sprintf("Skipped %d, the first %s: %s", n, c.skipped[0].ID, c.skipped[0].Why), max(c.Width, 20))) + "\n")
	}
	switch {
	case len(c.claim) > 0:
	case c.holder == nil:
		b.WriteString("Nothing is claimable now among the followed allocations.\n")
	default:
		b.WriteString("Nothing is claimable now among this wallet's allocations.\n")
	}
	return b.String() + "\n"
}

// coverage says how many of the allocations allot knows go to the
// wallet, and how many could not be read (whose they are is unknown).
func (c *claimAll) coverage() string {
	held, unread := len(c.claim), 0
	for _, sk := range c.skipped {
		if sk.Unread {
			unread++
		} else {
			held++
		}
	}
	line := fmt.Sprintf("Of the %d allocations allot knows (%s), %d go to this wallet", c.looked, c.sources(), held)
	if unread > 0 {
		line += fmt.Sprintf("; %d could not be read", unread)
	}
	return line + "."
}

// sources says where allot looked for a wallet's allocations.
func (c *claimAll) sources() string {
	if c.Ctx.Session.Fixtures != nil {
		return "the sandbox's demo ones and those you follow"
	}
	return "those you follow"
}

// unknownWallet says that allot knows no allocation of the wallet, where
// it looked, and how to make one known: the service lists no wallet's
// allocations (docs/deployment.md D19).
func (c *claimAll) unknownWallet() string {
	where := "the allocations you follow"
	if c.Ctx.Session.Fixtures != nil {
		where += " and the sandbox's demo allocations"
	}
	return fmt.Sprintf("allot knows no allocation of this wallet. The service does not list a wallet's allocations, "+
		"so allot looks only at %s (%d here), and none of those goes to %s.\n\n"+
		"To claim one of this wallet's allocations, follow it: look it up with 3 (the Allocation screen) and its id, "+
		"then press f; or list allocations = [\"ID\"] in the profile. Then C on this account again.\n",
		where, c.looked, c.holder.Hex())
}

func (c *claimAll) Keys() widget.Bindings { return c.Bindings(nil) }

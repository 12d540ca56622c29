package holder

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/internal/amount"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// stake stakes in a pool for the signed-in wallet: the amount, the stake
// parameters from the portal, the allowance read on chain (an approve of
// exactly the amount first when it is short), then the clear-signing flow.
type stake struct {
	views.FormSign
	pool api.Pool
	plan *wallet.StakePlan
	unit string // the pool's token, as the header names it; "tokens" when not known
	left leftover
}

// NewStake is the stake screen of pool.
func NewStake(ctx *views.Context, pool api.Pool) views.Screen {
	s := &stake{pool: pool, unit: "tokens"}
	if ctx.Session != nil {
		if n, ok := ctx.Session.TokenName(pool.TokenID); ok && n.Short() != "" {
			s.unit = sanitize.Line(n.Short())
		}
	}
	s.FormSign = views.NewFormSign(ctx, s.headLines, "prepare the stake",
		widget.TextField("amount", "Amount ("+s.unit+")", "e.g. 100", nil))
	s.Foot = s.leftoverLines
	s.Form.Field("amount").Check = func(v string) error {
		_, err := s.amount(v)
		return err
	}
	return s
}

// Acting: the form signs a stake.
func (s *stake) Acting() {}

func (s *stake) amount(v string) (api.Number, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return api.Number{}, errors.New("type the amount to stake")
	}
	n, err := api.ParseTokenAmount(v)
	if err != nil {
		return api.Number{}, err
	}
	if min := s.pool.MinimumStakeAmount.Decimal; n.LessThan(min) {
		return api.Number{}, fmt.Errorf("the pool's minimum stake is %s %s", widget.FormatTokens(min.String()), s.unit)
	}
	return n, nil
}

func (s *stake) Title() string { return "Stake" }

func (s *stake) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := s.updateLeftover(msg); ok {
		return cmd
	}
	if s.Flow != nil {
		cmd := s.UpdateFlow(msg)
		return tea.Batch(cmd, s.checkLeftover())
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return s.FormKey(msg, s.prepare)
	case views.Loaded[*wallet.StakePlan]:
		if msg.Seq != s.Seq {
			return nil
		}
		s.Working = ""
		if msg.Err != nil {
			s.Err = msg.Err
			return nil
		}
		s.plan = msg.Value
		ops := []string{"stake"}
		if s.plan.Approve != nil {
			ops = []string{"approve", "stake"}
		}
		return s.Sign(s.pool.ID, ops, s.plan.Calls(), map[common.Address]string{s.plan.Token: "the token the pool stakes"}, s.policy())
	}
	return s.Form.Update(msg)
}

// prepare asks the portal for the stake call and reads the allowance; it
// sends nothing that changes anything.
func (s *stake) prepare() tea.Cmd {
	if !s.Form.Valid() {
		return nil
	}
	amount, _ := s.amount(s.Form.Field("amount").Value())
	acct, _, unlocked := s.Ctx.Wallet.Account()
	portal, sess, signed := s.Ctx.Wallet.Portal(s.Ctx.Now())
	switch {
	case !unlocked:
		s.Err = errors.New("no account is unlocked: esc, then u (or :unlock)")
		return nil
	case !signed:
		s.Err = errors.New("not signed in to the portal, which builds the stake: esc, then :portal and s")
		return nil
	case sess.Wallet != acct:
		s.Err = fmt.Errorf("the portal session is %s's, not the unlocked %s's: sign in again", sess.Wallet.Hex(), acct.Hex())
		return nil
	}
	if err := s.Ctx.Session.NeedChain("staking"); err != nil {
		s.Err = err
		return nil
	}
	s.Working = "Asking the portal and reading the allowance"
	s.Seq = s.Reqs.Next()
	poolID, chain := s.pool.ID, s.Ctx.Session.Chain
	return views.Load(s.Ctx, s.Seq, func(ctx context.Context) (*wallet.StakePlan, error) {
		params, err := portal.StakeParameters(ctx, poolID, amount)
		if err != nil {
			return nil, err
		}
		call, err := wallet.StakeCall(params)
		if err != nil {
			return nil, fmt.Errorf("stake parameters: %w", err)
		}
		return wallet.PlanStake(ctx, chain, call)
	})
}

// policy holds the stake's calls to the pool's contract and the amount
// asked.
func (s *stake) policy() views.PolicyCheck {
	session, pool := s.Ctx.Session, s.pool
	signer, _, _ := s.Ctx.Wallet.Account()
	// The amount typed, never the one in the portal's calldata.
	var amount *big.Int
	if n, err := s.amount(s.Form.Field("amount").Value()); err == nil {
		amount, _ = api.BaseUnits(n.Decimal)
	}
	check := session.StakeCheck(pool, signer, amount)
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		if amount == nil {
			return nil, errors.New("the amount typed is not an amount of tokens")
		}
		return check(ctx, pins, calls)
	}
}

func (s *stake) View() string {
	return s.Draw("enter asks the portal for the stake call and shows it before anything is signed · esc cancels", nil)
}

// headLines are the lines above the form or the flow: the pool, as whom,
// and the approve that comes first when one does.
func (s *stake) headLines() string {
	st := s.Ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Stake in "+sanitize.Line(s.pool.Name)) + "\n")
	b.WriteString(st.Muted.Render(fmt.Sprintf("minimum %s %s · minimum length %s · max APY %s",
		widget.FormatTokens(s.pool.MinimumStakeAmount.String()), s.unit, widget.FormatDuration(s.pool.MinimumStakeLength), amount.Percent(s.pool.MaxAPY.String()))) + "\n")
	// What the stake needs is said on open, as the claim form does, not
	// only once the amount is typed and sent.
	addr, _, unlocked := s.Ctx.Wallet.Account()
	switch {
	case !unlocked && addr != (common.Address{}) && s.signedInAs(addr):
		// Locked by its timer: the portal session of the account holds.
		b.WriteString(addr.Hex() + " is locked: esc, then u (or :unlock) to unlock it again; its portal sign-in holds.\n")
	case !unlocked:
		b.WriteString("No account is unlocked: esc, then u (or :unlock); the stake also needs a portal sign-in (:portal).\n")
	default:
		b.WriteString("Staking as " + addr.Hex() + "\n")
		if !s.signedInAs(addr) {
			b.WriteString("Not signed in to the portal as this account, which builds the stake: esc, then :portal and s.\n")
		}
	}
	b.WriteString("\n")
	if p := s.plan; s.Flow != nil && p.Approve != nil && !s.After() {
		need := wallet.FormatTokens(p.Amount) + " " + s.unit
		b.WriteString(fmt.Sprintf("The pool may move %s %s of yours and the stake needs %s: an approve of exactly %s comes first.\n",
			wallet.FormatTokens(p.Allowance), s.unit, need, need))
	}
	return b.String()
}

func (s *stake) Keys() widget.Bindings { return append(s.Bindings(nil), s.resetKeys()...) }

// signedInAs says the portal session is addr's.
func (s *stake) signedInAs(addr common.Address) bool {
	_, sess, ok := s.Ctx.Wallet.Portal(s.Ctx.Now())
	return ok && sess.Wallet == addr
}

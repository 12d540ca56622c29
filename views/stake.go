package views

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/sanitize"
	"allot/views/widget"
	"allot/wallet"
)

// stake stakes in a pool for the signed-in wallet: the amount, the stake
// parameters from the portal, the allowance read on chain (an approve of
// exactly the amount first when it is short), then the clear-signing flow.
type stake struct {
	ctx  *Context
	pool api.Pool
	form *widget.Form
	keys formKeys

	planning bool
	plan     *wallet.StakePlan
	flow     *signing
	err      error
	seq      int

	width, height int
}

// NewStake is the stake screen of pool.
func NewStake(ctx *Context, pool api.Pool) Screen {
	s := &stake{ctx: ctx, pool: pool, keys: defaultFormKeys("prepare the stake")}
	s.form = widget.NewForm(widget.TextField("amount", "Amount (tokens)", "e.g. 100", nil))
	s.form.Styles = ctx.Styles
	s.form.Field("amount").Check = func(v string) error {
		_, err := s.amount(v)
		return err
	}
	return s
}

func (s *stake) amount(v string) (api.Number, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return api.Number{}, errors.New("type the amount to stake")
	}
	n, err := api.ParseAmount(v)
	if err != nil {
		return api.Number{}, err
	}
	if !n.IsPositive() {
		return api.Number{}, errors.New("must be greater than 0")
	}
	if min := s.pool.MinimumStakeAmount.Decimal; n.LessThan(min) {
		return api.Number{}, fmt.Errorf("the pool's minimum stake is %s", min.String())
	}
	return n, nil
}

func (s *stake) Title() string   { return "Stake" }
func (s *stake) Busy() bool      { return s.planning || s.flow != nil && s.flow.busy() }
func (s *stake) Capturing() bool { return s.flow == nil || s.flow.capturing() }
func (s *stake) Narrowed() bool  { return false }
func (s *stake) Init() tea.Cmd   { return s.form.Focus(0) }

func (s *stake) SetSize(width, height int) {
	s.width, s.height = width, height
	s.form.SetSize(width, 3)
	if s.flow != nil {
		s.flow.setSize(width, height-4)
	}
}

func (s *stake) Update(msg tea.Msg) tea.Cmd {
	if s.flow != nil {
		cmd, _ := s.flow.update(msg)
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if s.planning {
			return nil
		}
		switch {
		case key.Matches(msg, s.keys.Cancel):
			return back
		case key.Matches(msg, s.keys.Submit):
			return s.prepare()
		}
		return s.form.Update(msg)
	case loaded[*wallet.StakePlan]:
		if msg.seq != s.seq {
			return nil
		}
		s.planning = false
		if msg.err != nil {
			s.err = msg.err
			return nil
		}
		s.plan = msg.value
		addr, _, ok := s.ctx.Wallet.Account()
		if !ok {
			s.err = errors.New("the account locked itself: unlock it again (u)")
			return nil
		}
		ops := []string{"stake"}
		if s.plan.Approve != nil {
			ops = []string{"approve", "stake"}
		}
		s.seq = nextSeq()
		var cmd tea.Cmd
		labels := map[common.Address]string{s.plan.Token: "the token the pool stakes"}
		s.flow, cmd = newSigning(s.ctx, s.seq, s.pool.ID, ops, s.plan.Calls(), addr, labels)
		s.flow.setSize(s.width, s.height-4)
		return cmd
	}
	return s.form.Update(msg)
}

// prepare asks the portal for the stake call and reads the allowance; it
// sends nothing that changes anything.
func (s *stake) prepare() tea.Cmd {
	s.err = nil
	if !s.form.Valid() {
		return nil
	}
	amount, _ := s.amount(s.form.Field("amount").Value())
	acct, _, unlocked := s.ctx.Wallet.Account()
	portal, sess, signed := s.ctx.Wallet.Portal(s.ctx.Now())
	switch {
	case !unlocked:
		s.err = errors.New("no account is unlocked: esc, then u (or :unlock)")
		return nil
	case !signed:
		s.err = errors.New("not signed in to the portal, which builds the stake: esc, then :portal and s")
		return nil
	case sess.Wallet != acct:
		s.err = fmt.Errorf("the portal session is %s's, not the unlocked %s's: sign in again", sess.Wallet.Hex(), acct.Hex())
		return nil
	}
	if err := s.ctx.Session.NeedChain("staking"); err != nil {
		s.err = err
		return nil
	}
	s.planning = true
	s.seq = nextSeq()
	poolID, chain := s.pool.ID, s.ctx.Session.Chain
	return load(s.seq, func(ctx context.Context) (*wallet.StakePlan, error) {
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

func (s *stake) View() string {
	st := s.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Stake in "+sanitize.Line(s.pool.Name)) + "\n")
	b.WriteString(st.Muted.Render(fmt.Sprintf("minimum %s · minimum length %s · max APY %s%%",
		widget.FormatAmount(s.pool.MinimumStakeAmount.String()), widget.FormatDuration(s.pool.MinimumStakeLength), s.pool.MaxAPY.String())) + "\n")
	if addr, _, ok := s.ctx.Wallet.Account(); ok {
		b.WriteString("Staking as " + addr.Hex() + "\n")
	}
	b.WriteString("\n")
	if s.flow != nil {
		if p := s.plan; p != nil && p.Approve != nil {
			b.WriteString(fmt.Sprintf("The pool may move %s of your tokens and the stake needs %s: an approve of exactly %s comes first.\n",
				wallet.FormatUnits(p.Allowance), wallet.FormatUnits(p.Amount), wallet.FormatUnits(p.Amount)))
		}
		b.WriteString(s.flow.viewOf(st, s.width))
	} else {
		b.WriteString(s.form.View() + "\n\n")
		b.WriteString(st.Muted.Render("enter asks the portal for the stake call and shows it before anything is signed · esc cancels") + "\n")
		if s.planning {
			b.WriteString("Asking the portal and reading the allowance…\n")
		}
	}
	if s.err != nil {
		b.WriteString("\n✗ " + sanitize.Line(s.err.Error()) + "\n")
	}
	return widget.Page(b.String(), s.width, s.height)
}

func (s *stake) ShortHelp() []key.Binding {
	if s.flow != nil {
		return s.flow.help()
	}
	return []key.Binding{s.keys.Submit, s.keys.Cancel}
}

func (s *stake) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

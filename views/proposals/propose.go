package proposals

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe"
)

// propose is an owner proposing an act of a Safe from the dashboard, as
// `allot stake|claim --account SAFE --owner KEY` does: a form (the pool
// and amount of a stake, or the allocation of a claim the Safe sends), or
// the list of a batch's acts (batch.go), then the session builds the Safe
// transaction and reviews it (session.ProposeStake, ProposeClaim,
// ProposeTransfer, ProposeBatch): each call the Safe makes decoded,
// the three hashes a co-signer compares, who signs, and the signing
// policy's verdict. The unlocked key, an owner's, signs that proposal,
// the one the review showed, or nothing; the proposal is saved in the
// state directory as the CLI saves it, and the page says how many
// signatures it has and where it is listed (propose_review.go).
type propose struct {
	views.FormSign
	claim bool
	// transfer is the allocation a transfer of the Safe's gives to a new
	// address (propose_transfer.go); nil for a stake or a claim.
	transfer *transferOf
	safe     session.SafeAccount
	// pools are the token's active pools a stake chooses from, by the
	// option the form shows; nil until read.
	pools map[string]api.Pool
	// safes are the profile's Safes the unlocked key owns, by the option
	// the form shows, when the Safe is chosen in the form (choose.go).
	safes  map[string]session.SafeAccount
	choose bool
	// chosenID is the allocation a claim from its page is for.
	chosenID string
	// batch is the acts of a batch the owner adds one by one (batch.go);
	// nil for one act.
	batch *batchOf
	// loadErr is why the form cannot be made: no pool, no Safe.
	loadErr error

	review *session.SafeReview
	// summaries are the review's calls decoded, shown once signed too.
	summaries []*wallet.Summary
	ask       *widget.Confirm
	scroll    widget.Scroll
	// done is the proposal once signed and saved, as read back.
	done    *session.SafeProposal
	signing bool
	// discarding: ask is the question whether to drop a batch's acts.
	discarding bool
	height     int
}

// NewSafeStake is the stake of the Safe sa, proposed by the unlocked key.
func NewSafeStake(ctx *views.Context, sa session.SafeAccount) views.Screen {
	p := &propose{safe: sa}
	p.FormSign = views.NewFormSign(ctx, p.head, "review the Safe transaction")
	p.scroll.Styles = ctx.Styles
	return p
}

// NewSafeClaim is a claim the Safe sa sends, for the allocation id (any
// holder's: the tokens go to it), proposed by the unlocked key; id may be
// "", typed in the form.
func NewSafeClaim(ctx *views.Context, sa session.SafeAccount, id string) views.Screen {
	p := &propose{safe: sa, claim: true}
	p.FormSign = views.NewFormSign(ctx, p.head, "review the Safe transaction", claimFields()...)
	p.Form.Field("allocation").SetValue(id)
	p.scroll.Styles = ctx.Styles
	return p
}

// claimFields are the fields of a claim the Safe sends.
func claimFields() []*widget.FormField {
	return []*widget.FormField{
		allocationField(),
		widget.TextField("amount", "Amount (optional)", "blank: all that is claimable", optionalAmount),
		widget.TextField("userCountryCode", "Country (optional)", "ISO 3166-1 alpha-2, e.g. DE", nil),
	}
}

// allocationField is the allocation a claim or a transfer is of.
func allocationField() *widget.FormField {
	return widget.TextField("allocation", "Allocation id", "the allocation's id, as its page (3) shows it", func(v string) error {
		return api.CheckUUID("allocation id", strings.TrimSpace(v))
	})
}

// Acting: the screen signs a proposal and writes it.
func (p *propose) Acting() {}

func (p *propose) Title() string {
	if p.batch != nil {
		return "Propose a batch as a Safe"
	}
	return "Propose as a Safe"
}

func (p *propose) Init() tea.Cmd {
	if p.choose {
		return p.readSafes()
	}
	if p.claim || p.transfer != nil {
		return p.FormSign.Init()
	}
	if p.batch != nil {
		return nil // the pools are read for its first stake
	}
	return p.readPools()
}

// readPools reads the token's active pools, for a stake to choose from.
func (p *propose) readPools() tea.Cmd {
	p.Working = "Reading the token's pools"
	p.Seq = p.Reqs.Next()
	s, token := p.Ctx.Session, p.Ctx.Token
	return views.Load(p.Ctx, p.Seq, func(c context.Context) ([]api.Pool, error) {
		pools, err := s.API.AllPools(c, token)
		if err != nil {
			return nil, fmt.Errorf("list the pools of token %s: %w", token, err)
		}
		var active []api.Pool
		for _, pool := range pools.Items {
			if pool.Status == "ACTIVE" {
				active = append(active, pool)
			}
		}
		return active, nil
	})
}

// settlePools makes the stake's form once the pools are read: the pool
// chosen among the active ones, the amount, and the MultiSendCallOnly the
// approve and the stake go through together (the canonical one of the
// Safe's version, as Safe{Wallet} uses, unless another is typed).
func (p *propose) settlePools(msg views.Loaded[[]api.Pool]) tea.Cmd {
	p.Working = ""
	if msg.Err != nil || len(msg.Value) == 0 {
		p.loadErr = msg.Err
		if p.loadErr == nil {
			p.loadErr = errors.New("the token has no active pool to stake in")
		}
		p.Withhold()
		return nil
	}
	options := p.choosePools(msg.Value)
	form := widget.NewForm(append(stakeFields(options), multiSendField())...)
	form.Styles = p.Ctx.Styles
	p.Form = form
	p.SetSize(p.Width, p.height)
	// Set once the input has its width, so that it shows from the start.
	form.Field("multisend").SetValue(safe.MultiSendCallOnlyOf(p.safe.Info.Version).Hex())
	return p.Form.Focus(0)
}

// choosePools keeps the pools a stake chooses from, by the option the
// form shows, and returns the options in the service's order.
func (p *propose) choosePools(pools []api.Pool) []string {
	p.pools = map[string]api.Pool{}
	var options []string
	for _, pool := range pools {
		o := sanitize.Truncate(pool.Name, 40) + " · min " + widget.FormatTokens(pool.MinimumStakeAmount.String())
		if _, dup := p.pools[o]; dup {
			o += " · " + pool.ID
		}
		p.pools[o] = pool
		options = append(options, o)
	}
	return options
}

// stakeFields are the fields of a stake: the pool among options, and the
// amount.
func stakeFields(options []string) []*widget.FormField {
	return []*widget.FormField{
		widget.ChoiceField("pool", "Pool", options...),
		widget.TextField("amount", "Amount (tokens)", "e.g. 100", requiredAmount),
	}
}

// multiSendField is the MultiSendCallOnly several calls go through.
func multiSendField() *widget.FormField {
	return widget.TextField("multisend", "MultiSendCallOnly", "", func(v string) error {
		return api.CheckAddress("MultiSendCallOnly", strings.TrimSpace(v))
	})
}

func requiredAmount(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("type the amount")
	}
	return optionalAmount(v)
}

func optionalAmount(v string) error {
	_, err := baseUnits(v)
	return err
}

// baseUnits is the amount typed in base units, nil when blank.
func baseUnits(v string) (*big.Int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	n, err := api.ParseTokenAmount(v)
	if err != nil {
		return nil, err
	}
	return api.BaseUnits(n.Decimal)
}

// owner is the unlocked key, an owner of the Safe, or why there is none.
func (p *propose) owner() (common.Address, error) {
	if err := p.Ctx.Session.Writable(); err != nil {
		return common.Address{}, err
	}
	me, _, ok := p.Ctx.Wallet.Account()
	switch {
	case !ok:
		return me, errors.New("no key is unlocked: unlock an owner's key first (esc, then u)")
	case !p.safe.Info.IsOwner(me):
		return me, fmt.Errorf("the unlocked key %s is not an owner of the Safe %s", me.Hex(), p.safe.Address.Hex())
	}
	return me, nil
}

// prepare checks the form and has the act it says built (build).
func (p *propose) prepare() tea.Cmd {
	p.Form.Try()
	if !p.Form.Valid() {
		return nil
	}
	if p.choose {
		p.safe = p.safes[p.Form.Field("safe").Value()]
	}
	return p.build()
}

// build reads the Safe again (its nonce is the proposal's) and has the
// session build and review the act, or the batch; nothing is signed.
func (p *propose) build() tea.Cmd {
	me, err := p.owner()
	if err != nil {
		p.Err = err
		return nil
	}
	build, err := p.builder(me)
	if err != nil {
		p.Err = err
		return nil
	}
	p.Working = "Reading the Safe and building its transaction"
	p.Seq = p.Reqs.Next()
	s, addr := p.Ctx.Session, p.safe.Address
	return views.Load(p.Ctx, p.Seq, func(c context.Context) (*session.SafeReview, error) {
		info, err := s.ReadSafe(c, addr)
		if err != nil {
			return nil, err
		}
		return build(c, info)
	})
}

// builder is how the session builds the act the form says, for owner.
func (p *propose) builder(owner common.Address) (func(context.Context, safe.Info) (*session.SafeReview, error), error) {
	s, rec, f := p.Ctx.Session, p.Ctx.Recorder, p.Form
	if b := p.batch; b != nil {
		acts, multiSend := slices.Clone(b.acts), b.multiSend
		return func(c context.Context, info safe.Info) (*session.SafeReview, error) {
			return s.ProposeBatch(c, rec, info, owner, acts, multiSend)
		}, nil
	}
	if t := p.transfer; t != nil {
		to, err := views.TransferTo(f.Field("to").Value(), p.safe.Address, t.vester)
		if err != nil {
			return nil, err
		}
		return func(c context.Context, info safe.Info) (*session.SafeReview, error) {
			return s.ProposeTransfer(c, rec, info, owner, t.id, to, common.Address{})
		}, nil
	}
	amount, err := baseUnits(f.Field("amount").Value())
	if err != nil {
		return nil, err
	}
	if !p.claim {
		pool := p.pools[f.Field("pool").Value()]
		multiSend := common.HexToAddress(strings.TrimSpace(f.Field("multisend").Value()))
		return func(c context.Context, info safe.Info) (*session.SafeReview, error) {
			return s.ProposeStake(c, rec, info, owner, pool, amount, multiSend)
		}, nil
	}
	id := strings.TrimSpace(f.Field("allocation").Value())
	req := api.ClaimRequest{Sender: p.safe.Address.Hex()}
	if country := strings.TrimSpace(f.Field("userCountryCode").Value()); country != "" {
		code, err := api.CountryCode("userCountryCode", country)
		if err != nil {
			return nil, err
		}
		req.UserCountryCode = code
	}
	if amount != nil {
		n, _ := api.ParseTokenAmount(strings.TrimSpace(f.Field("amount").Value()))
		req.Amount = &n
	}
	if err := req.Validate(id); err != nil {
		return nil, err
	}
	return func(c context.Context, info safe.Info) (*session.SafeReview, error) {
		return s.ProposeClaim(c, rec, info, owner, id, req, amount, common.Address{})
	}, nil
}

// head is what the form says above its fields: the Safe and who signs.
func (p *propose) head() string {
	st, a := p.Ctx.Styles, p.safe
	if p.choose {
		return p.chooseHead()
	}
	what := "Stake as the Safe "
	switch {
	case p.claim:
		what = "Claim, sent by the Safe "
	case p.transfer != nil:
		what = "Transfer allocation " + p.transfer.id + " of the Safe "
	case p.batch != nil:
		what = "Acts of the Safe "
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(widget.Truncate(what+a.Address.Hex(), max(p.Width, 20))) + "\n")
	b.WriteString(st.Muted.Render(widget.Truncate(fmt.Sprintf("%d of %d owners sign · nonce %s · the unlocked owner's key proposes and signs first; nothing is sent to the chain",
		a.Info.Threshold, len(a.Info.Owners), a.Info.Nonce), max(p.Width, 20))) + "\n")
	if me, err := p.owner(); err != nil {
		b.WriteString("✗ " + sanitize.Line(err.Error()) + "\n")
	} else {
		b.WriteString("Signing as the owner " + me.Hex() + "\n")
	}
	if p.transfer != nil {
		b.WriteString(p.transferHead())
	}
	if p.loadErr != nil {
		b.WriteString("✗ " + sanitize.Line(p.loadErr.Error()) + "\n")
	}
	return b.String() + "\n"
}

package holder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/core/session"
	"allot/core/write"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// claim claims an allocation for the unlocked account: the amount (all
// that is claimable by default), the claim request shown and sent on a yes,
// then the clear-signing flow of the transactions the service returns.
type claim struct {
	views.FormSign
	id string
	// claimable is what a claim can take now as the vester counts it
	// (D18), in tokens; empty when unknown.
	claimable string
	// recipient is where the vester sends the tokens; zero when unknown.
	recipient common.Address
	// outlook is what a claim can do now, from the allocation's record on
	// the vester: when Blocked, nothing is sent (review).
	outlook wallet.ClaimOutlook
	// token names the allocation's token; empty when unknown.
	token string

	req     *api.ClaimRequest // the request under review
	confirm *widget.Confirm
	// sending is the claim request on its way, sent as every write is;
	// outcome checks it when its answer was lost (lost, the error).
	sending views.Sending[claimAnswer]
	outcome views.Outcome
	lost    error
}

// NewClaim is the claim screen of allocation id. claimable, when known, is
// what a claim can take now, as the vester counts it, and recipient the
// address its tokens reach: the screen says so when another account is
// unlocked, before the service refuses the claim. outlook says what the
// vester's record means for a claim: a claim it blocks is never sent.
// token names the allocation's token, "" when unknown.
func NewClaim(ctx *views.Context, id, claimable string, recipient common.Address, outlook wallet.ClaimOutlook, token string) views.Screen {
	c := &claim{id: id, claimable: claimable, recipient: recipient, outlook: outlook, token: token}
	unit := "tokens"
	if token != "" {
		unit = token
	}
	c.FormSign = views.NewFormSign(ctx, c.headLines, "review the claim request",
		widget.TextField("amount", "Amount ("+unit+")", "empty: all that is claimable now", nil),
		widget.TextField("userCountryCode", "Country (optional)", "ISO 3166-1 alpha-2, e.g. DE", nil),
	)
	for _, f := range c.Form.Fields() {
		f.Check = func(string) error { return c.check(f) }
	}
	// Room for a country typed by its name, to be refused as typed: cut
	// to two letters, "Germany" read as Georgia's GE.
	c.Form.Field("userCountryCode").SetCharLimit(40)
	if outlook.Blocked != "" {
		c.Withhold()
	}
	return c
}

// Acting: the form requests a claim and signs it.
func (c *claim) Acting() {}

// request builds the claim request from the form and validates it as the
// api package does; an amount that is not a number is one more field error.
func (c *claim) request() (api.ClaimRequest, error) {
	// A code goes upper case, as the service takes it; anything else as
	// typed, for the error to name it so.
	country := strings.TrimSpace(c.Form.Field("userCountryCode").Value())
	if code, err := api.CountryCode("userCountryCode", country); err == nil {
		country = code
	}
	req := api.ClaimRequest{UserCountryCode: country}
	if addr, _, ok := c.Ctx.Wallet.Account(); ok {
		req.Sender = addr.Hex()
	}
	var amountErr *api.FieldError
	if v := strings.TrimSpace(c.Form.Field("amount").Value()); v != "" {
		n, err := api.ParseTokenAmount(v)
		if err == nil {
			err = c.withinClaimable(n)
		}
		if err != nil {
			amountErr = &api.FieldError{Path: "amount", Message: err.Error()}
		} else {
			req.Amount = &n
		}
	}
	err := req.Validate(c.id)
	if amountErr == nil {
		return req, err
	}
	verr := &api.ValidationError{Op: "claim"}
	errors.As(err, &verr)
	verr.Fields = append(verr.Fields, *amountErr)
	return req, verr
}

// withinClaimable refuses an amount above what the vester can pay now:
// its withdraw would revert.
func (c *claim) withinClaimable(n api.Number) error {
	if c.claimable == "" {
		return nil
	}
	claimable, err := api.ParseAmount(c.claimable)
	if err != nil || n.LessThanOrEqual(claimable.Decimal) {
		return nil
	}
	return fmt.Errorf("more than the %s claimable now", c.amount(claimable.String()))
}

// amount writes an amount in tokens as the screens do: grouped, with the
// allocation's token ("5,145.7595 HBR"), or "tokens" when it is unknown.
func (c *claim) amount(tokens string) string {
	if c.token == "" {
		return widget.FormatTokens(tokens) + " tokens"
	}
	return widget.FormatTokens(tokens) + " " + c.token
}

// check validates the request as the api package does and returns what
// it says of f, placed as the service's errors are (views.ErrorOf).
func (c *claim) check(f *widget.FormField) error {
	_, err := c.request()
	return views.ErrorOf(c.Form, f, err)
}

func (c *claim) Title() string { return "Claim" }

// Drafted says the form holds what the user typed, or a request under
// review, not sent.
func (c *claim) Drafted() bool {
	if c.Flow != nil || c.Working != "" {
		return false
	}
	for _, f := range c.Form.Fields() {
		if f.Value() != "" {
			return true
		}
	}
	return c.confirm != nil
}

func (c *claim) SetSize(width, height int) {
	c.FormSign.SetSize(width, height)
	if c.confirm != nil {
		c.confirm.SetWidth(min(width, 80))
	}
}

func (c *claim) Update(msg tea.Msg) tea.Cmd {
	if c.Flow != nil {
		return c.UpdateFlow(msg)
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if c.confirm != nil {
			return c.confirm.Update(msg)
		}
		return c.FormKey(msg, c.review)
	case widget.ConfirmMsg:
		if !c.confirm.Answers(msg) {
			return nil
		}
		c.confirm = nil
		if !msg.Yes {
			c.req = nil
			return c.Form.Focus(c.Form.Focused())
		}
		return c.send()
	case spinner.TickMsg, views.Answer[claimAnswer]:
		answer, cmd := c.sending.Update(msg)
		if answer == nil {
			return cmd
		}
		return c.answered(answer)
	}
	if c.outcome.Update(msg) {
		c.checked()
		return nil
	}
	return c.Form.Update(msg)
}

func (c *claim) review() tea.Cmd {
	if c.outlook.Blocked != "" {
		c.Err = fmt.Errorf("no claim can be signed: %s; nothing was sent", c.outlook.Blocked)
		return nil
	}
	if _, _, ok := c.Ctx.Wallet.Account(); !ok {
		c.Err = errors.New("no account is unlocked: press esc, then u (or :unlock), and claim again")
		return nil
	}
	if !c.Form.Valid() {
		return nil
	}
	req, err := c.request()
	if err != nil {
		c.Err = err
		return nil
	}
	c.req = &req
	body, _ := json.MarshalIndent(req, "", "  ")
	c.confirm = c.Ctx.Confirm("claim", "Send this claim request for allocation "+c.id+"?",
		"POST "+write.Claim.Path(c.id), string(body),
		"The service answers with the transaction(s) to sign, which you review next. Nothing is signed yet.")
	c.confirm.SetWidth(min(c.Width, 80))
	return nil
}

// claimAnswer is the claim's transactions: the service's answer, or the
// calls allot built when the service would not build them for the
// signer, and the sentence that says so.
type claimAnswer struct {
	res       *api.ClaimResult
	calls     []wallet.Call
	selfBuilt string
}

// send sends the confirmed claim request as every write is sent
// (views.Sending): journaled, detached from the screens' root.
func (c *claim) send() tea.Cmd {
	req, id := *c.req, c.id
	rec, sess := c.Ctx.Recorder, c.Ctx.Session
	client := sess.API
	signer, _, _ := c.Ctx.Wallet.Account()
	var asked *big.Int
	if req.Amount != nil {
		asked, _ = api.BaseUnits(req.Amount.Decimal) // checked again by the policy
	}
	c.Working, c.lost = "Sending the claim request", nil
	c.outcome.Forget()
	return c.sending.Start(func(ctx context.Context) (claimAnswer, error) {
		res, err := rec.RequestClaim(ctx, client, id, req)
		if err != nil && session.SenderRefused(err) {
			// Anyone may send a vester's withdraw (docs/custody.md):
			// built here from the proof, it is reviewed and checked as
			// the service's would be.
			calls, berr := sess.SelfBuiltClaim(ctx, id, signer, asked)
			if berr != nil {
				return claimAnswer{}, fmt.Errorf("%w; allot did not build it either: %w", err, berr)
			}
			return claimAnswer{calls: calls, selfBuilt: "The service would not build this claim for " + signer.Hex() +
				"; allot built the same withdraw from the allocation's proof and the chain's claim fee: review it below."}, nil
		}
		return claimAnswer{res: res}, err
	})
}

// answered starts signing what the claim request answered; a refusal is
// said, its fields marked; a lost answer is checked at once (Outcome),
// which settles it in the journal.
func (c *claim) answered(answer *views.Answer[claimAnswer]) tea.Cmd {
	c.Working = ""
	body, _ := json.Marshal(c.req)
	if written, lost := answer.Lost(act.Sent{Op: write.OpClaim, Ref: c.id, Body: body}); lost {
		c.Working, c.lost = "No answer came; checking whether the service took the request", answer.Err
		return c.outcome.Lost(c.Ctx, written)
	}
	if answer.Err != nil {
		// The whole refusal in the status line; under its field what
		// the service said of each (SetErrors places them by path).
		c.Err = answer.Err
		c.Form.SetErrors(views.PathErrors(answer.Err))
		return nil
	}
	calls := answer.Value.calls
	if calls == nil {
		var err error
		if calls, err = wallet.ClaimCalls(answer.Value.res); err != nil {
			c.Err = fmt.Errorf("the claim cannot be signed here: %w", err)
			return nil
		}
	}
	ops := make([]string, len(calls))
	for i := range ops {
		ops[i] = "claim"
	}
	sign := c.Sign(c.id, ops, calls, nil, c.policy())
	if note := answer.Value.selfBuilt; note != "" {
		return tea.Batch(sign, func() tea.Msg { return views.StatusMsg{Text: note} })
	}
	return sign
}

// checked says what the check of a lost claim request found, after its
// error: the form is back, to review and ask again.
func (c *claim) checked() {
	c.Working = ""
	if c.lost != nil {
		c.Err = fmt.Errorf("%w. %s", c.lost, lostClaimNote(&c.outcome))
	}
}

// lostClaimNote says what the check of a lost claim request found, and
// that asking again is safe whatever it found: a claim request signs
// nothing (its kind's NoReadBack says why the check may not tell).
func lostClaimNote(o *views.Outcome) string {
	v := o.Verdict()
	switch {
	case v != nil && v.Check == act.Applied:
		return "Checked: the service took the request; its answer was lost. Asking again is safe: a claim request signs nothing."
	case v != nil && v.Check == act.NotApplied:
		return "Checked: the service did not take the request. Asking again is safe: a claim request signs nothing."
	case v != nil:
		return views.CheckedNote(*v, nil)
	}
	return views.CheckedNote(act.Verdict{}, errors.New(o.CheckErr()))
}

// policy holds the claim's calls to the allocation asked for and the
// amount asked (all that is claimable when none was).
func (c *claim) policy() views.PolicyCheck {
	session, id := c.Ctx.Session, c.id
	signer, _, _ := c.Ctx.Wallet.Account()
	// The amount in the request the user confirmed; nil asked for all.
	var asked *big.Int
	var askedErr error
	if c.req != nil && c.req.Amount != nil {
		asked, askedErr = api.BaseUnits(c.req.Amount.Decimal)
	}
	check := session.ClaimCheck(id, signer, asked)
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		if askedErr != nil {
			return nil, fmt.Errorf("the amount asked: %w", askedErr)
		}
		return check(ctx, pins, calls)
	}
}

func (c *claim) View() string {
	if c.outlook.Blocked != "" {
		return c.Draw("esc goes back: nothing can be claimed, so nothing is sent", c.confirm)
	}
	return c.Draw("enter reviews the claim request · esc cancels: nothing is sent", c.confirm)
}

// headLines are the lines above the form or the flow: which allocation,
// as whom, and how much is unlocked.
func (c *claim) headLines() string {
	st := c.Ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Claim allocation "+c.id) + "\n")
	addr, _, ok := c.Ctx.Wallet.Account()
	switch {
	case ok && c.recipient != (common.Address{}) && addr != c.recipient:
		b.WriteString("Claiming as " + addr.Hex() + "\n")
		// Anyone may send a withdraw (D19): it is not refused, but the
		// signer pays the fee and the tokens are not theirs.
		b.WriteString("! you pay the claim fee and the gas; the tokens go to " + c.recipient.Hex() + ", not to you\n")
	case ok:
		b.WriteString("Claiming as " + addr.Hex() + "\n")
	default:
		b.WriteString("No account is unlocked: esc, then u (or :unlock) to unlock the beneficiary's account.\n")
	}
	if c.outlook.Blocked != "" {
		b.WriteString(c.Ctx.Styles.Fail.Render("✗ Nothing can be claimed: "+sanitize.Line(c.outlook.Blocked)+".") + "\n\n")
		return b.String()
	}
	for _, n := range c.outlook.Notes {
		b.WriteString("! " + sanitize.Line(n) + "\n")
	}
	switch {
	case c.claimable != "" && c.Sent():
		// What the claim took is no longer claimable: the figure is the
		// one the claim was made against, and says so.
		b.WriteString(st.Muted.Render("Claimable before this claim: "+c.amount(c.claimable)+"; esc shows the allocation as it is now.") + "\n")
	case c.claimable != "":
		// Grouped as the allocation shows it (5,145.7595, not 5145.7595).
		b.WriteString(st.Muted.Render("Claimable now: "+c.amount(c.claimable)+" (vested, less what was withdrawn, at most what the vester holds); an empty amount claims all of it.") + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

func (c *claim) Keys() widget.Bindings { return c.Bindings(c.confirm) }

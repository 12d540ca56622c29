package views

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/sanitize"
	"allot/views/widget"
	"allot/wallet"
)

// claim claims an allocation for the unlocked account: the amount (all
// that is claimable by default), the claim request shown and sent on a yes,
// then the clear-signing flow of the transactions the service returns.
type claim struct {
	ctx      *Context
	id       string
	unlocked string // what the leaf says is unlocked by now, in tokens; a hint
	form     *widget.Form
	keys     formKeys

	req     *api.ClaimRequest // the request under review or sent
	confirm *widget.Confirm
	sending bool
	flow    *signing
	err     error
	seq     int

	width, height int
}

// formKeys are the keys of a screen whose form submits.
type formKeys struct {
	Submit, Cancel key.Binding
}

func defaultFormKeys(submit string) formKeys {
	return formKeys{
		Submit: key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter", submit)),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// NewClaim is the claim screen of allocation id; unlocked, when known, is
// the amount the allocation has unlocked by now, shown as a hint.
func NewClaim(ctx *Context, id, unlocked string) Screen {
	c := &claim{ctx: ctx, id: id, unlocked: unlocked, keys: defaultFormKeys("review the claim request")}
	c.form = widget.NewForm(
		widget.TextField("amount", "Amount (tokens)", "empty: all that is claimable now", nil),
		widget.TextField("userCountryCode", "Country (optional)", "ISO 3166-1 alpha-2, e.g. DE", nil),
	)
	c.form.Styles = ctx.Styles
	c.form.Field("amount").Check = func(string) error { return c.check("amount") }
	c.form.Field("userCountryCode").Check = func(string) error { return c.check("userCountryCode") }
	c.form.Field("userCountryCode").SetCharLimit(2)
	return c
}

// request builds the claim request from the form and validates it as the
// api package does; an amount that is not a number is one more field error.
func (c *claim) request() (api.ClaimRequest, error) {
	req := api.ClaimRequest{UserCountryCode: strings.ToUpper(strings.TrimSpace(c.form.Field("userCountryCode").Value()))}
	if addr, _, ok := c.ctx.Wallet.Account(); ok {
		req.Sender = addr.Hex()
	}
	var amountErr *api.FieldError
	if v := strings.TrimSpace(c.form.Field("amount").Value()); v != "" {
		n, err := api.ParseAmount(v)
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

// check validates the request as the api package does and returns the
// error of field path, if any.
func (c *claim) check(path string) error {
	_, err := c.request()
	return fieldError(err, path)
}

// fieldError is the message of path in a validation error, or nil.
func fieldError(err error, path string) error {
	var verr *api.ValidationError
	if !errors.As(err, &verr) {
		return nil
	}
	for _, f := range verr.Fields {
		if f.Path == path {
			return errors.New(f.Message)
		}
	}
	return nil
}

func (c *claim) Title() string { return "Claim" }
func (c *claim) Busy() bool    { return c.sending || c.flow != nil && c.flow.busy() }
func (c *claim) Capturing() bool {
	return c.flow == nil || c.flow.capturing()
}
func (c *claim) Narrowed() bool { return false }
func (c *claim) Init() tea.Cmd  { return c.form.Focus(0) }

func (c *claim) SetSize(width, height int) {
	c.width, c.height = width, height
	c.form.SetSize(width, 4)
	if c.confirm != nil {
		c.confirm.SetWidth(min(width, 80))
	}
	if c.flow != nil {
		c.flow.setSize(width, height)
	}
}

func (c *claim) Update(msg tea.Msg) tea.Cmd {
	if c.flow != nil {
		cmd, _ := c.flow.update(msg)
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if c.confirm != nil {
			return c.confirm.Update(msg)
		}
		if c.sending {
			return nil
		}
		switch {
		case key.Matches(msg, c.keys.Cancel):
			return back
		case key.Matches(msg, c.keys.Submit):
			return c.review()
		}
		return c.form.Update(msg)
	case widget.ConfirmMsg:
		if !c.confirm.Answers(msg) {
			return nil
		}
		c.confirm = nil
		if !msg.Yes {
			c.req = nil
			return c.form.Focus(c.form.Focused())
		}
		return c.send()
	case loaded[*api.ClaimResult]:
		if msg.seq != c.seq {
			return nil
		}
		c.sending = false
		if msg.err != nil {
			c.err = msg.err
			c.showRemote(msg.err)
			return nil
		}
		calls, err := wallet.ClaimCalls(msg.value)
		if err != nil {
			c.err = fmt.Errorf("the claim cannot be signed here: %w", err)
			return nil
		}
		ops := make([]string, len(calls))
		for i := range ops {
			ops[i] = "claim"
		}
		addr, _, ok := c.ctx.Wallet.Account()
		if !ok {
			c.err = errors.New("the account locked itself: unlock it again (u) and claim again")
			return nil
		}
		c.seq = nextSeq()
		var cmd tea.Cmd
		c.flow, cmd = newSigning(c.ctx, c.seq, c.id, ops, calls, addr, nil)
		c.flow.setSize(c.width, c.height)
		return cmd
	}
	return c.form.Update(msg)
}

// showRemote puts the service's field errors under the fields they name.
func (c *claim) showRemote(err error) {
	for _, f := range c.form.Fields() {
		if ferr := fieldError(err, f.Key); ferr != nil {
			f.SetErr(ferr)
		}
	}
}

func (c *claim) review() tea.Cmd {
	c.err = nil
	if _, _, ok := c.ctx.Wallet.Account(); !ok {
		c.err = errors.New("no account is unlocked: press esc, then u (or :unlock), and claim again")
		return nil
	}
	if !c.form.Valid() {
		return nil
	}
	req, err := c.request()
	if err != nil {
		c.err = err
		return nil
	}
	c.req = &req
	body, _ := json.MarshalIndent(req, "", "  ")
	c.confirm = widget.NewConfirm("claim", "Send this claim request for allocation "+c.id+"?",
		"POST allocations/"+c.id+"/claim", string(body),
		"The service answers with the transaction(s) to sign, which you review next. Nothing is signed yet.")
	c.confirm.Styles = c.ctx.Styles
	c.confirm.SetWidth(min(c.width, 80))
	return nil
}

func (c *claim) send() tea.Cmd {
	req, id := *c.req, c.id
	rec, client := c.ctx.Recorder, c.ctx.Session.API
	c.sending = true
	c.seq = nextSeq()
	return load(c.seq, func(ctx context.Context) (*api.ClaimResult, error) {
		var res *api.ClaimResult
		err := rec.Write("allocations/claim", id, req, func() (string, any, error) {
			var err error
			res, err = client.Claim(ctx, id, req)
			return "", res, err
		})
		return res, err
	})
}

func (c *claim) View() string {
	st := c.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Claim allocation "+c.id) + "\n")
	addr, _, ok := c.ctx.Wallet.Account()
	if ok {
		b.WriteString("Claiming as " + addr.Hex() + "\n")
	} else {
		b.WriteString("No account is unlocked: esc, then u (or :unlock) to unlock the beneficiary's account.\n")
	}
	if c.unlocked != "" {
		b.WriteString(st.Muted.Render("Unlocked by now: "+c.unlocked+" tokens; the service subtracts what was claimed already.") + "\n")
	}
	b.WriteString("\n")
	switch {
	case c.flow != nil:
		b.WriteString(c.flow.viewOf(st, c.width))
	case c.confirm != nil:
		b.WriteString(c.confirm.View() + "\n")
	default:
		b.WriteString(c.form.View() + "\n\n")
		b.WriteString(st.Muted.Render("enter reviews the claim request · esc cancels: nothing is sent") + "\n")
		if c.sending {
			b.WriteString("Sending the claim request…\n")
		}
	}
	if c.err != nil {
		b.WriteString("\n✗ " + sanitize.Line(c.err.Error()) + "\n")
	}
	return widget.Page(b.String(), c.width, c.height)
}

func (c *claim) ShortHelp() []key.Binding {
	switch {
	case c.flow != nil:
		return c.flow.help()
	case c.confirm != nil:
		return c.confirm.ShortHelp()
	}
	return append([]key.Binding{c.keys.Submit, c.keys.Cancel}, c.form.Keys.ShortHelp()...)
}

func (c *claim) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

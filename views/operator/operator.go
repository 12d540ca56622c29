// Package operator holds the treasury operator's transaction forms
// (initialize, start and fund a distribution): the form, the exact body
// under a question, the result, and an outcome that stayed unknown.
package operator

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/act"
	"allot/core/write"
	"allot/views"
	"allot/views/widget"
)

// stage is where the operator screen is: editing, reviewing the body,
// waiting for the service, or showing what came of it.
type stage int

const (
	stageForm    stage = iota // editing the form
	stageReview               // the exact body and a yes/no question
	stageSending              // waiting for the service
	stageResult               // the created transactions
	stageUnknown              // sent, but no answer came
	stageResend               // the body again, and the question whether to resend
)

// fundRow is one (allocation id, amount) row of a FUND_DISTRIBUTION form.
type fundRow struct{ id, amount *widget.FormField }

// operator builds one transaction request (INITIALIZE, START_DISTRIBUTION
// or FUND_DISTRIBUTION) in a form checked as it is typed by the api
// package's own Validate (a field's error shown once the field is left),
// shows the exact body for review, sends it once
// through the journal, and, when the answer is lost, helps to find out
// whether it was applied before anything is sent again.
type operator struct {
	ctx      *views.Context
	contract api.Contract
	action   string
	form     *widget.Form
	recent   []string
	pick     *pickList // the recent lookups to choose from, while open
	// admins are the embedded sandbox's demo admin wallets, none on a
	// real deployment; pickingAdmin: pick lists them.
	admins       []string
	pickingAdmin bool

	// The fields; nil when the action has none of that name.
	contractID, tokenID, allocationIDs, adminWallet, memo, isTest *widget.FormField
	rows                                                          []fundRow

	state stage
	// general is a one-line failure not tied to a field; hint is a
	// one-line note (what ctrl+r did).
	general, hint string

	req    api.TransactionRequest
	body   []byte // json.Marshal(req): the bytes the client sends
	pretty []string
	lines  []string // pretty, wrapped to the width
	// scroll shows what may be taller than the screen: the body sent whose
	// outcome is unknown, or the transactions created.
	scroll widget.Scroll

	asking  *views.WriteReview // the body and the question, to send or resend
	sending views.Sending[*api.TransactionsResult]

	result     *api.TransactionsResult
	unknownErr error
	sentAt     time.Time
	outcome    views.Outcome // the write whose answer was lost, and its check

	initial []string // the fields' values as the form opened, for Drafted

	width, height int
}

// Operator keys.
var (
	keyReview = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review"))
	keyAddRow = key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "add row"))
	keyDelRow = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "remove row"))
	keyRecent = key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "recent lookups"))
	keyCancel = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	keyCheck  = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check if applied"))
	keyResend = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resend (asks first)"))
	keyClose  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
)

// Reopen is the page of a transaction request whose answer never
// came, read back from the journal (by a later run, or after its page was
// closed): check whether the service applied it, or send the same bytes
// again after a yes. It is nil when body is not a request of action.
func Reopen(ctx *views.Context, action, id string, body []byte, at time.Time) views.Screen {
	req, ok := write.Transaction.Read(action, body)
	if !ok {
		return nil
	}
	var contract struct {
		ID string `json:"contractId"`
	}
	json.Unmarshal(body, &contract) // absent from a fund request: no name either way
	o := New(ctx, api.Contract{ID: contract.ID}, action).(*operator)
	o.req, o.body, o.pretty = req, body, views.PrettyBody(body)
	o.rewrap()
	o.state, o.sentAt = stageUnknown, at
	o.outcome.Reopen(ctx, act.Sent{Op: act.OpTransaction, Ref: action, Write: id, Body: body})
	o.unknownErr = fmt.Errorf("as the journal recorded at %s", views.SentAt(at))
	o.fitScroll()
	return o
}

// New is the form of one transaction action for contract c:
// api.ActionInitialize, api.ActionStartDistribution or
// api.ActionFundDistribution.
func New(ctx *views.Context, c api.Contract, action string) views.Screen {
	o := &operator{ctx: ctx, contract: c, action: action, width: 80, height: 22}
	o.recent = ctx.Journal.RecentLookups(ctx.Session.Deployment(), views.MaxRecent)
	if fx := ctx.Session.Fixtures; fx != nil {
		o.admins = fx.AdminWalletIDs
	}
	var fields []*widget.FormField
	switch action {
	case api.ActionInitialize:
		o.contractID = widget.TextField("contractId", "Contract id", "UUID", nil)
		o.adminWallet = widget.TextField("adminWalletId", "Admin wallet id", "UUID", nil)
		fields = []*widget.FormField{o.contractID, o.adminWallet}
	case api.ActionStartDistribution:
		o.contractID = widget.TextField("contractId", "Contract id", "UUID", nil)
		o.tokenID = widget.TextField("tokenId", "Token id", "UUID", nil)
		o.allocationIDs = widget.TextField("allocationIds", "Allocation ids", "UUIDs, comma-separated (ctrl+r: recent)", nil)
		// A distribution may start with many allocations at once.
		o.allocationIDs.SetCharLimit(40 * 1000)
		o.allocationIDs.Item = "id"
		o.adminWallet = widget.TextField("adminWalletId", "Admin wallet id", "optional UUID", nil)
		o.memo = widget.TextField("memo", "Memo", "optional", nil)
		fields = []*widget.FormField{o.contractID, o.tokenID, o.allocationIDs, o.adminWallet, o.memo}
	default:
		o.action = api.ActionFundDistribution
		o.tokenID = widget.TextField("tokenId", "Token id", "UUID", nil)
		o.isTest = widget.ChoiceField("isTest", "Test funding", "no", "yes")
		o.rows = []fundRow{o.newRow()}
		fields = []*widget.FormField{o.tokenID, o.isTest, o.rows[0].id, o.rows[0].amount}
	}
	if o.contractID != nil {
		o.contractID.SetValue(c.ID)
	}
	if o.tokenID != nil {
		o.tokenID.SetValue(ctx.Token)
	}
	for _, f := range fields {
		if f.Options == nil {
			o.attachCheck(f)
		}
	}
	if o.rows != nil {
		// The amounts are of the token typed: their placeholders follow it.
		check := o.tokenID.Check
		o.tokenID.Check = func(v string) error {
			o.nameAmounts()
			return check(v)
		}
	}
	o.form = widget.NewForm(fields...)
	o.form.Styles = ctx.Styles
	// The form shows a field's own error once the user has left the field
	// or tried to review, so that "not a UUID" does not greet the first
	// character typed; enter moves on and reviews from the last field.
	o.form.ErrorsOnLeave = true
	o.form.Submit = o.review
	o.renumber()
	// Every field is checked now (SetErrors without errors checks each
	// and sets none): an empty field the user leaves untouched then says
	// what it lacks.
	o.form.SetErrors(nil)
	// Start on the first field still to fill.
	for i, f := range fields {
		if f.Options == nil && f.Value() == "" {
			o.form.Focus(i)
			break
		}
	}
	o.SetSize(o.width, o.height)
	o.initial = o.values()
	return o
}

// Acting: the form creates an on-chain transaction.
func (o *operator) Acting() {}

// Drafted says the form holds what the user typed or reviews, not sent.
func (o *operator) Drafted() bool {
	return (o.state == stageForm || o.state == stageReview) && !slices.Equal(o.values(), o.initial)
}

func (o *operator) Title() string {
	switch o.action {
	case api.ActionInitialize:
		return "Initialize"
	case api.ActionStartDistribution:
		return "Start distribution"
	}
	return "Fund distribution"
}

// Init focuses the form, or on a reopened write checks it at once.
func (o *operator) Init() tea.Cmd {
	if o.state == stageUnknown {
		return o.outcome.Check()
	}
	return o.form.Focus(o.form.Focused())
}
func (o *operator) Mode() views.Mode {
	return views.Mode{
		Busy:      o.state == stageSending || o.outcome.Checking(),
		Writing:   o.state == stageSending,
		TakesKeys: o.state == stageForm,
		OwnsEsc:   o.state == stageReview || o.state == stageSending || o.state == stageResend,
	}
}
func (o *operator) formHeight() int { return max(o.height-3, 1) }

func (o *operator) SetSize(width, height int) {
	o.width, o.height = max(width, 20), max(height, 3)
	o.form.SetSize(o.width, o.formHeight())
	if o.asking != nil {
		o.asking.SetSize(o.width, o.height)
	}
	o.rewrap()
	o.fitScroll()
}

// fitScroll gives the scrolling part its lines and the room the state
// leaves: the body sent between what the check found and the keys, or the
// created transactions below a title and above two lines.
func (o *operator) fitScroll() {
	switch {
	case o.state == stageResult:
		o.scroll.SetLines(o.resultLines())
		o.scroll.SetSize(o.width, o.height-3)
	case o.state == stageUnknown:
		// The body under what the check found and its "Body sent:" line.
		o.scroll.SetLines(o.lines)
		o.scroll.SetSize(o.width, max(o.height-len(o.unknownHead())-1, 1))
	}
}

func (o *operator) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return o.key(msg)
	case widget.ConfirmMsg:
		return o.answered(msg)
	case spinner.TickMsg, views.Answer[*api.TransactionsResult]:
		answer, cmd := o.sending.Update(msg)
		if answer != nil {
			return o.sent(answer)
		}
		return cmd
	}
	if o.outcome.Update(msg) {
		o.fitScroll() // what the check found is above the body
		return nil
	}
	if o.state == stageForm {
		return o.form.Update(msg)
	}
	return nil
}

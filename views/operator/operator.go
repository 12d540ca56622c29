// Package operator holds the treasury operator's transaction forms
// (initialize, start and fund a distribution): the form, the exact body
// under a question, the result, and an outcome that stayed unknown.
package operator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/api"
	"allot/internal/act"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// createOp is the operation the operator's transactions are journaled
// under, as the command line names it.
const createOp = "transactions/create"

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

// checkState is what checking an unknown outcome found.
type checkState int

const (
	checkNone       checkState = iota
	checkApplied               // the service created it
	checkNotApplied            // safe to resend
	checkCannotTell            // the API cannot read transactions back
	checkRunning               // the check runs
)

// fundRow is one (allocation id, amount) row of a FUND_DISTRIBUTION form.
type fundRow struct{ id, amount *widget.FormField }

// operator builds one transaction request (INITIALIZE, START_DISTRIBUTION
// or FUND_DISTRIBUTION) in a form checked as it is typed by the api
// package's own Validate, shows the exact body for review, sends it once
// through the journal, and, when the answer is lost, helps to find out
// whether it was applied before anything is sent again.
type operator struct {
	ctx      *views.Context
	contract api.Contract
	action   string
	form     *widget.Form
	recent   []string
	pick     *pickList // the recent lookups to choose from, while open

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
	// scroll shows what may be taller than the screen: the body under
	// review, or the transactions created.
	scroll widget.Scroll

	confirm *widget.Confirm
	spin    spinner.Model
	seq     int

	result     *api.TransactionsResult
	unknownErr error
	sentAt     time.Time
	written    act.Sent // the write whose outcome is unknown
	checked    checkState
	// cannotTell says why the check cannot tell; checkErr why it failed.
	cannotTell, checkErr string

	initial []string // the fields' values as the form opened, for Drafted

	width, height int
}

// Operator keys.
var (
	keyReview  = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review"))
	keyNext    = key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field"))
	keyPrev    = key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field"))
	keyChoice  = key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "change choice"))
	keyAddRow  = key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "add row"))
	keyDelRow  = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "remove row"))
	keyRecent  = key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "recent lookups"))
	keyCancel  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	keyYes     = key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "send"))
	keyNo      = key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "back to the form"))
	keyNoAgain = key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "do not send"))
	keyScroll  = key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓/pgup/pgdn", "scroll"))
	keyCheck   = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check if applied"))
	keyResend  = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resend (asks first)"))
	keyClose   = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
)

// Reopen is the page of a transaction request whose answer never
// came, read back from the journal (by a later run, or after its page was
// closed): check whether the service applied it, or send the same bytes
// again after a yes. It is nil when body is not a request of action.
func Reopen(ctx *views.Context, action, write string, body []byte, at time.Time) views.Screen {
	req, ok := views.ReadTransactionRequest(action, body)
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
	o.written = act.Sent{Op: createOp, Ref: action, Write: write, Body: body}
	o.unknownErr = fmt.Errorf("as the journal recorded at %s", at.UTC().Format("15:04:05 MST on 2 Jan 2006"))
	o.fitScroll()
	return o
}

// New is the form of one transaction action for contract c:
// api.ActionInitialize, api.ActionStartDistribution or
// api.ActionFundDistribution.
func New(ctx *views.Context, c api.Contract, action string) views.Screen {
	o := &operator{ctx: ctx, contract: c, action: action, width: 80, height: 22}
	o.recent = views.RecentLookups(ctx.Journal, ctx.Session.Deployment())
	o.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	var fields []*widget.FormField
	switch action {
	case api.ActionInitialize:
		o.contractID = widget.TextField("contractId", "Contract id", "UUID", nil)
		o.adminWallet = widget.TextField("adminWalletId", "Admin wallet id", "UUID", nil)
		fields = []*widget.FormField{o.contractID, o.adminWallet}
	case api.ActionStartDistribution:
		o.contractID = widget.TextField("contractId", "Contract id", "UUID", nil)
		o.tokenID = widget.TextField("tokenId", "Token id", "UUID", nil)
		o.allocationIDs = widget.TextField("allocationIds", "Allocation ids", "UUIDs, separated by commas or spaces (ctrl+r: recent)", nil)
		// A distribution may start with many allocations at once.
		o.allocationIDs.SetCharLimit(40 * 1000)
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
	o.form = widget.NewForm(fields...)
	o.form.Styles = ctx.Styles
	o.renumber()
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

// values are the fields' values, in order.
func (o *operator) values() []string {
	var v []string
	for _, f := range o.form.Fields() {
		v = append(v, f.Value())
	}
	return v
}

// Drafted says the form holds what the user typed or reviews, not sent.
func (o *operator) Drafted() bool {
	return (o.state == stageForm || o.state == stageReview) && !slices.Equal(o.values(), o.initial)
}

// newRow returns a row of fields, checked.
func (o *operator) newRow() fundRow {
	r := fundRow{
		id:     widget.TextField("allocationId", "Allocation", "UUID (ctrl+r: recent)", nil),
		amount: widget.TextField("amount", "Amount", "tokens, e.g. 1250.5", nil),
	}
	o.attachCheck(r.id)
	o.attachCheck(r.amount)
	return r
}

// attachCheck makes f's check the request's own validation, read for f.
func (o *operator) attachCheck(f *widget.FormField) {
	f.Check = func(string) error { return o.fieldErr(f) }
}

// renumber labels the rows 1, 2, ... and measures the labels again.
func (o *operator) renumber() {
	for i, r := range o.rows {
		r.id.Label = fmt.Sprintf("Allocation %d", i+1)
		r.amount.Label = fmt.Sprintf("Amount %d", i+1)
	}
	if o.form != nil {
		o.form.SetSize(o.width, o.formHeight())
	}
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

func (o *operator) Init() tea.Cmd   { return o.form.Focus(o.form.Focused()) }
func (o *operator) Busy() bool      { return o.state == stageSending || o.checked == checkRunning }
func (o *operator) Capturing() bool { return o.state == stageForm }
func (o *operator) Narrowed() bool {
	return o.state == stageReview || o.state == stageSending || o.state == stageResend
}
func (o *operator) formHeight() int   { return max(o.height-3, 1) }
func (o *operator) bodySum() string   { return sha256Hex(o.body) }
func (o *operator) confirmWidth() int { return min(o.width, 76) }
func (o *operator) lastField() bool   { return o.form.Focused() == len(o.form.Fields())-1 }

// fundRowStart is the index of the first row's field: tokenId and isTest
// come first.
func (o *operator) fundRowStart() int { return 2 }

func (o *operator) failLine(s string) string { return views.FailStyle.Render(s) }

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (o *operator) SetSize(width, height int) {
	o.width, o.height = max(width, 20), max(height, 3)
	o.form.SetSize(o.width, o.formHeight())
	if o.confirm != nil {
		o.confirm.SetWidth(o.confirmWidth())
	}
	o.rewrap()
	o.fitScroll()
}

// fitScroll gives the scrolling part its lines and the room the state
// leaves: the body below a title and a line and above the question, or the
// created transactions below a title and above two lines.
func (o *operator) fitScroll() {
	switch {
	case o.state == stageResult:
		o.scroll.SetLines(o.resultLines())
		o.scroll.SetSize(o.width, o.height-3)
	case o.state == stageUnknown:
		// The body between what the check found and the keys.
		o.scroll.SetLines(o.lines)
		o.scroll.SetSize(o.width, max(o.height-len(o.unknownHead())-1-len(o.unknownTail()), 1))
	case o.confirm != nil:
		o.scroll.SetLines(o.lines)
		o.scroll.SetSize(o.width, o.height-2-lipgloss.Height(o.confirm.View()))
	}
}

func (o *operator) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return o.key(msg)
	case widget.ConfirmMsg:
		return o.answered(msg)
	case sentMsg:
		if msg.seq == o.seq && o.state == stageSending {
			return o.sent(msg)
		}
		return nil
	case checkedMsg:
		if msg.seq == o.seq && o.checked == checkRunning {
			o.checked, o.cannotTell, o.checkErr = checkNone, msg.verdict.Reason, ""
			switch {
			case msg.err != nil:
				o.checkErr = sanitize.Line(msg.err.Error())
			case msg.verdict.Check == act.Applied:
				o.checked = checkApplied
			case msg.verdict.Check == act.NotApplied:
				o.checked = checkNotApplied
			default:
				o.checked = checkCannotTell
			}
			o.fitScroll()
		}
		return nil
	case spinner.TickMsg:
		if o.state == stageSending {
			var cmd tea.Cmd
			o.spin, cmd = o.spin.Update(msg)
			return cmd
		}
		return nil
	}
	if o.state == stageForm {
		return o.form.Update(msg)
	}
	return nil
}

func (o *operator) key(msg tea.KeyMsg) tea.Cmd {
	switch o.state {
	case stageForm:
		return o.formKey(msg)
	case stageReview, stageResend:
		if o.scroll.Key(msg) {
			return nil
		}
		return o.confirm.Update(msg)
	case stageResult:
		o.scroll.Key(msg)
		return nil
	case stageUnknown:
		defer o.fitScroll() // the check and a hint change the page
		switch {
		case o.scroll.Key(msg):
		case key.Matches(msg, keyCheck):
			return o.check()
		case key.Matches(msg, keyResend):
			return o.askResend()
		}
	}
	return nil
}

func (o *operator) formKey(msg tea.KeyMsg) tea.Cmd {
	o.hint = ""
	if o.pick != nil {
		o.pickKey(msg)
		return nil
	}
	switch {
	case key.Matches(msg, keyCancel):
		return views.Back
	case key.Matches(msg, keyReview):
		return o.review()
	case msg.String() == "enter":
		if o.lastField() {
			return o.review()
		}
		return o.move(o.form.Focused() + 1)
	case o.action != api.ActionInitialize && key.Matches(msg, keyRecent):
		o.openPick()
		return nil
	case o.action == api.ActionFundDistribution && key.Matches(msg, keyAddRow):
		return o.addRow()
	case o.action == api.ActionFundDistribution && key.Matches(msg, keyDelRow):
		o.removeRow()
		return nil
	}
	before := o.form.Focused()
	cmd := o.form.Update(msg)
	if o.form.Focused() != before {
		o.left(before)
	}
	return cmd
}

// move focuses field i, checking the field left.
func (o *operator) move(i int) tea.Cmd {
	before := o.form.Focused()
	cmd := o.form.Focus(i)
	if o.form.Focused() != before {
		o.left(before)
	}
	return cmd
}

// left checks the field at index i as the focus leaves it: an error of a
// field not typed into yet shows once the user moves past it.
func (o *operator) left(i int) {
	if fields := o.form.Fields(); i >= 0 && i < len(fields) && fields[i].Check != nil {
		fields[i].SetErr(fields[i].Check(fields[i].Value()))
	}
}

// focusedRow is the index of the row holding the focus, or -1.
func (o *operator) focusedRow() int {
	if o.action != api.ActionFundDistribution {
		return -1
	}
	i := o.form.Focused() - o.fundRowStart()
	if i < 0 {
		return -1
	}
	return min(i/2, len(o.rows)-1)
}

func (o *operator) addRow() tea.Cmd {
	at := o.focusedRow() + 1
	if at == 0 {
		at = len(o.rows)
	}
	r := o.newRow()
	o.rows = append(o.rows[:at], append([]fundRow{r}, o.rows[at:]...)...)
	o.form.Insert(o.fundRowStart()+2*at, r.id, r.amount)
	o.renumber()
	o.hint = fmt.Sprintf("Added row %d.", at+1)
	return o.form.Focus(o.fundRowStart() + 2*at)
}

func (o *operator) removeRow() {
	i := o.focusedRow()
	switch {
	case i < 0:
		o.hint = "Move to a row to remove it."
		return
	case len(o.rows) == 1:
		o.hint = "The last row stays: a funding needs at least one."
		return
	}
	o.rows = append(o.rows[:i], o.rows[i+1:]...)
	o.form.Remove(o.fundRowStart()+2*i, 2)
	o.renumber()
	o.form.Focus(o.fundRowStart() + 2*min(i, len(o.rows)-1))
	o.hint = fmt.Sprintf("Removed row %d.", i+1)
}

// openPick lists the recent lookups to choose from: ids for the list of a
// start distribution, or one for the focused fund row.
func (o *operator) openPick() {
	if len(o.recent) == 0 {
		o.hint = "No recent lookups: look allocations up on the Allocation screen (3) first."
		return
	}
	taken := map[string]string{}
	if o.allocationIDs != nil {
		for _, id := range splitIDs(o.allocationIDs.Value()) {
			taken[strings.ToLower(id)] = "in the list"
		}
		o.pick = newPickList(o.recent, taken, true)
		return
	}
	row := o.focusedRow()
	if row < 0 {
		o.hint = "Move to a row to fill its allocation id."
		return
	}
	for j, r := range o.rows {
		if id := strings.TrimSpace(r.id.Value()); j != row && id != "" {
			taken[strings.ToLower(id)] = fmt.Sprintf("row %d", j+1)
		}
	}
	o.pick = newPickList(o.recent, taken, false)
}

// pickKey passes k to the open list and puts what it chose in the form.
func (o *operator) pickKey(k tea.KeyMsg) {
	chosen, done := o.pick.key(k)
	if !done {
		return
	}
	o.pick = nil
	if len(chosen) == 0 {
		return
	}
	if o.allocationIDs != nil {
		o.allocationIDs.SetValue(strings.Join(append(splitIDs(o.allocationIDs.Value()), chosen...), ", "))
		o.recheck(o.allocationIDs)
		o.hint = fmt.Sprintf("Added %d from the recent lookups.", len(chosen))
		return
	}
	if row := o.focusedRow(); row >= 0 {
		o.rows[row].id.SetValue(chosen[0])
		o.recheck(o.rows[row].id)
		o.hint = fmt.Sprintf("Row %d: %s from the recent lookups.", row+1, chosen[0])
	}
}

// recheck checks a field whose value was set for the user.
func (o *operator) recheck(f *widget.FormField) {
	if f.Check != nil {
		f.SetErr(f.Check(f.Value()))
	}
}

// fixMarked is the form's line while a field is marked with an error.
const fixMarked = "Fix the marked field first."

// review checks the whole form and shows the body that would be sent.
func (o *operator) review() tea.Cmd {
	o.general = ""
	if !o.form.Valid() {
		o.general = fixMarked
		return nil
	}
	req := o.build()
	if err := req.Validate(); err != nil {
		loose := o.markFields(validationFields(err))
		o.general = fixMarked
		if len(loose) > 0 {
			o.general = strings.Join(loose, "; ")
		}
		return nil
	}
	body, err := json.Marshal(req)
	if err != nil {
		o.general = "cannot encode the request: " + err.Error()
		return nil
	}
	o.req, o.body = req, body
	o.pretty = views.PrettyBody(body)
	o.rewrap()
	o.confirm = widget.NewConfirm("operator-send", "Send this "+o.action+" request to the service?")
	o.confirm.Styles = o.ctx.Styles
	o.confirm.SetWidth(o.confirmWidth())
	o.state = stageReview
	o.fitScroll()
	o.scroll.Home()
	return nil
}

func (o *operator) answered(msg widget.ConfirmMsg) tea.Cmd {
	switch {
	case !o.confirm.Answers(msg):
		return nil
	case o.state == stageReview:
		o.confirm = nil
		if msg.Yes {
			return o.send()
		}
		o.state = stageForm
		return o.form.Focus(o.form.Focused())
	case o.state == stageResend:
		o.confirm = nil
		if msg.Yes {
			o.ctx.Recorder.Resent(o.written)
			return o.send()
		}
		o.state = stageUnknown
		o.fitScroll()
	}
	return nil
}

// sentMsg is the answer to a send.
type sentMsg struct {
	seq    int // request numbers are unique across screens (NextSeq)
	result *api.TransactionsResult
	err    error
}

// checkedMsg is what checking an unknown outcome found.
type checkedMsg struct {
	seq     int
	verdict act.Verdict
	err     error
}

// send sends the reviewed request once, journaled, off the UI goroutine.
func (o *operator) send() tea.Cmd {
	o.seq = views.NextSeq()
	o.state = stageSending
	o.general, o.hint, o.checked = "", "", checkNone
	o.sentAt = o.ctx.Now()
	seq, req := o.seq, o.req
	sess, rec := o.ctx.Session, o.ctx.Recorder
	sendCmd := func() tea.Msg {
		c, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
		defer cancel()
		res, err := rec.CreateTransaction(c, sess.API, req)
		return sentMsg{seq: seq, result: res, err: err}
	}
	return tea.Batch(o.spin.Tick, sendCmd)
}

func (o *operator) sent(msg sentMsg) tea.Cmd {
	var invalid *api.ValidationError
	switch {
	case msg.err == nil:
		o.state, o.result = stageResult, msg.result
		o.fitScroll()
		o.scroll.Home()
		return nil
	case act.Unknown(msg.err):
		defer o.fitScroll()
		o.state, o.unknownErr = stageUnknown, msg.err
		o.written = act.Sent{Op: createOp, Ref: o.action, Body: o.body}
		var journaled *act.UnknownError
		if errors.As(msg.err, &journaled) {
			o.written = journaled.Sent()
		}
		return nil
	case errors.As(msg.err, &invalid):
		o.state = stageForm
		loose := o.markFields(invalid.Fields)
		o.general = "The service refused the request: fix the marked fields."
		if len(loose) > 0 {
			o.general = "The service refused the request: " + strings.Join(loose, "; ")
		}
		return o.form.Focus(o.form.Focused())
	}
	o.state = stageForm
	o.general = "Not created: " + sanitize.Line(msg.err.Error())
	return o.form.Focus(o.form.Focused())
}

// check finds out whether the write whose answer was lost was applied;
// what it finds settles the write in the journal (act.Recorder.Check).
func (o *operator) check() tea.Cmd {
	if o.checked == checkRunning {
		return nil
	}
	o.checked = checkRunning
	seq, sent, rec := o.seq, o.written, o.ctx.Recorder
	return func() tea.Msg {
		v, err := views.CheckSent(rec, sent)
		return checkedMsg{seq: seq, verdict: v, err: err}
	}
}

// askResend shows the body again and asks before sending it a second time.
func (o *operator) askResend() tea.Cmd {
	var prompt string
	switch o.checked {
	case checkApplied:
		o.hint = "The service created it: it is not sent again."
		return nil
	case checkRunning:
		return nil
	case checkNotApplied:
		prompt = "Send this request again? The check found the first was not applied."
	case checkCannotTell:
		prompt = "Send this request again? allot cannot tell whether the first was applied: do so only if the service's operators say it was not."
	default:
		prompt = "Send this request again? The first may have been applied: answer n and press c to check first."
	}
	o.hint = ""
	o.confirm = widget.NewConfirm("operator-resend", prompt)
	o.confirm.Styles = o.ctx.Styles
	o.confirm.SetWidth(o.confirmWidth())
	o.state = stageResend
	o.fitScroll()
	o.scroll.Home()
	return nil
}

// Package transactions holds the Transactions screen: what this machine
// created or sent, read back from the journal, with an UNKNOWN write
// opened again by a Reopener. It imports no screen that writes, so that
// their tests can read their writes back here.
package transactions

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/internal/act"
	"allot/internal/journal"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// Row is a transaction this machine created or sent, read back from the
// local journal.
type Row struct {
	ID      string // the service's transaction id, or a chain hash
	Kind    string // the action, or "chain"
	Status  string
	At      time.Time
	Profile string
	// Chain transactions: where they were mined, once they are.
	Block, Confirmations, GasUsed uint64
	RevertReason                  string
	// Body is the request of an unknown outcome, as the journal holds it,
	// when it can be checked or sent again (see canReopen); nil otherwise.
	Body json.RawMessage
	// Sent is the body a service transaction was created with.
	Sent json.RawMessage
	// What a chain transaction did, as its signature recorded it (see
	// signedFields); none when it was not recorded.
	what []widget.Field
	// op, ref and write are the journaled write of an unknown outcome.
	op, ref, write string
	// unsettled is a chain transaction the journal holds without a final
	// status, for the chain to be asked about it (Learn).
	unsettled *act.Unsettled
	// behind is the nonce a queued transaction waits for.
	behind uint64
}

// keyUnknown opens a request whose outcome is unknown.
var keyUnknown = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "check/resend an UNKNOWN"))

// statusUnknown marks a request whose answer never came.
const statusUnknown = "UNKNOWN"

// StatusText is the status with where the transaction was mined.
func (r Row) StatusText() string {
	switch {
	case r.Status == string(wallet.StateQueued):
		return fmt.Sprintf("queued behind nonce %d", r.behind)
	case r.RevertReason != "":
		return fmt.Sprintf("%s in block %d: %s", r.Status, r.Block, r.RevertReason)
	case r.Block > 0:
		return fmt.Sprintf("%s, block %d", r.Status, r.Block)
	}
	return r.Status
}

// fields are the row's details; a service transaction's say what is known
// of it and the body it was created with.
func (r Row) Fields(now time.Time) []widget.Field {
	fields := []widget.Field{
		{Label: "Transaction", Value: r.ID},
		{Label: "Kind", Value: r.Kind},
		{Label: "Status", Value: r.Status},
	}
	fields = append(fields, r.what...)
	switch r.Status {
	case api.TransactionCreated:
		fields[2].Value = api.TransactionCreatedNote
	case string(wallet.StateQueued):
		fields[2].Value = wallet.Status{State: wallet.StateQueued, Behind: r.behind}.QueuedNote()
	}
	if r.Block > 0 {
		fields = append(fields,
			widget.Field{Label: "Block", Value: fmt.Sprint(r.Block)},
			widget.Field{Label: "Confirmations", Value: fmt.Sprint(r.Confirmations)},
			widget.Field{Label: "Gas used", Value: fmt.Sprint(r.GasUsed)})
	}
	if r.RevertReason != "" {
		fields = append(fields, widget.Field{Label: "Revert reason", Value: r.RevertReason})
	}
	fields = append(fields,
		widget.Field{Label: "Created", Value: widget.FormatTime(r.At, now)},
		widget.Field{Label: "Profile", Value: r.Profile})
	if r.Sent != nil {
		fields = append(fields, widget.Field{Label: "Body sent", Value: strings.Join(views.PrettyBody(r.Sent), "\n")})
	}
	return fields
}

// New lists every transaction this machine created (with
// `allot tx`) or sent to a chain, newest first, from the local journal. It
// rereads the journal every few seconds, so what another allot process
// creates appears here. reopen opens an UNKNOWN write on enter: it is
// given, since each write is reopened by the family of screens that sends it.
func New(ctx *views.Context, reopen Reopener) views.Screen {
	l := views.NewList(ctx, "Transactions", widget.TableConfig[Row]{
		Columns: []widget.Column[Row]{
			{Title: "Transaction", Cell: func(r Row) string { return r.ID }, MinWidth: 14, Flex: 3},
			{Title: "Kind", Cell: func(r Row) string { return r.Kind }, MinWidth: 18, MaxWidth: 18, Sort: func(a, b Row) int { return compareFold(a.Kind, b.Kind) }},
			// Short: a revert's reason is whole in the details, and the
			// ids and the pane need the room a long one took.
			{Title: "Status", Cell: Row.StatusText, Text: true, MinWidth: 16, MaxWidth: 22, Flex: 1, Sort: func(a, b Row) int { return compareFold(a.Status, b.Status) }},
			{Title: "Created", Cell: func(r Row) string { return r.At.UTC().Format("2006-01-02 15:04:05") }, MinWidth: 19, Priority: 2, Sort: func(a, b Row) int { return a.At.Compare(b.At) }},
			{Title: "Profile", Cell: func(r Row) string { return r.Profile }, MinWidth: 8, Priority: 3},
		},
		ID:       func(r Row) string { return r.Kind + r.ID },
		CopyText: func(r Row) string { return r.ID },
		Empty:    "No transactions yet. Transactions you create or send with allot (operator forms on Contracts, claims, stakes, allot tx) appear here.",
	}, func(r Row) []widget.Field { return r.Fields(ctx.Now()) })
	j := ctx.Journal
	d := ctx.Session.Deployment()
	rec, node, chainID := ctx.Recorder, ctx.Session.Chain, ctx.Session.Profile.ChainID
	l.Fetch = func(c context.Context) ([]Row, error) {
		rows, err := screenful(j, d)
		learn(c, rec, node, chainID, rows)
		return rows, err
	}
	l.NewestFirst = true
	l.Actions = []views.RowAction[Row]{{
		Key:  keyUnknown,
		Open: func(r Row) views.Screen { return reopen(ctx, r.op, r.ref, r.write, r.Body, r.At) },
		Only: func(r Row) bool { return r.Status == statusUnknown },
		Refuse: func(r Row) string {
			if r.Body == nil {
				return cannotReopen
			}
			return ""
		},
	}}
	t := &transactions{List: l, live: map[string]wallet.Status{}}
	l.Loaded = func(rows []Row) []Row {
		t.rows = rows
		return t.merge()
	}
	return t
}

// transactions keeps the statuses of the transactions followed in this
// run, newer than what the journal says until they are final.
type transactions struct {
	*views.List[Row]
	live map[string]wallet.Status
	rows []Row
	// seen is the recorder's count at the last read; polls counts looks.
	seen  uint64
	polls int
}

// journalPoll is how often the screen looks for new entries: what this
// process recorded since (a cheap count), and every pollsPerRead looks
// whatever another allot process wrote.
const (
	journalPoll  = 500 * time.Millisecond
	pollsPerRead = 6
)

type pollJournal struct{}

func pollLater() tea.Cmd {
	return tea.Tick(journalPoll, func(time.Time) tea.Msg { return pollJournal{} })
}

func (t *transactions) Init() tea.Cmd {
	t.seen = t.Ctx.Recorder.Appended()
	return tea.Batch(t.List.Init(), pollLater())
}

func (t *transactions) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case pollJournal:
		t.polls++
		if n := t.Ctx.Recorder.Appended(); n != t.seen || t.polls%pollsPerRead == 0 {
			t.seen = n
			if t.LoadErr() != nil {
				return tea.Batch(t.Reload(), pollLater())
			}
			// A refresh: quiet, and never sorting under the user.
			return tea.Batch(t.List.Update(views.RefreshMsg{}), pollLater())
		}
		return pollLater()
	case views.TxStatusMsg:
		t.live[msg.Status.Hash.Hex()] = msg.Status
		return t.RefreshRows(t.merge())
	case views.HeadMsg:
		return t.RefreshRows(t.merge())
	}
	return t.List.Update(msg)
}

// merge lays the live statuses over the journal's rows, and counts a mined
// transaction's confirmations up to the chain's head.
func (t *transactions) merge() []Row {
	rows := slices.Clone(t.rows)
	head, _ := t.Ctx.Head()
	for i := range rows {
		if st, ok := t.live[rows[i].ID]; ok && rows[i].Block == 0 {
			rows[i].Status, rows[i].behind = string(st.State), st.Behind
			rows[i].Block, rows[i].Confirmations, rows[i].GasUsed, rows[i].RevertReason = st.Block, st.Confirmations, st.GasUsed, st.RevertReason
		}
		rows[i].Confirmations = views.Confirmations(rows[i].Block, rows[i].Confirmations, head)
	}
	return rows
}

// compareFold orders a and b ignoring case: "claim" sorts beside
// "CREATIVE", not after every upper-case kind.
func compareFold(a, b string) int {
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// writeKinds name the writes of other operations than transactions/create
// in the Kind column.
var writeKinds = map[string]string{
	act.OpSchedule:  "schedule",
	act.OpUploadURL: "creative upload URL",
	act.OpCreative:  "creative",
	act.OpClaim:     "claim request",
}

// Read lists what the journal says was created on deployment d
// (journal.Transactions), as the screen's rows. A write whose outcome was
// never recorded (the program ended while it was in flight) is unknown
// too, in every run after, until a later outcome settles it.
func Read(j *journal.Journal, d journal.Deployment) ([]Row, error) { return ReadNewest(j, d, -1) }

// screenRows bounds what the screen reads: the newest rows, as fast from
// years of journal as from a new one. `allot transactions` lists them all.
const screenRows = 1000

// screenful is the screen's rows, and a warning when there are more.
func screenful(j *journal.Journal, d journal.Deployment) ([]Row, error) {
	rows, err := ReadNewest(j, d, screenRows+1)
	if len(rows) <= screenRows {
		return rows, err
	}
	more := views.RowsWarning(fmt.Sprintf("the newest %d are listed: `allot transactions` lists every one", screenRows))
	if err != nil {
		return rows[:screenRows], views.RowsWarning(err.Error() + "; " + string(more))
	}
	return rows[:screenRows], more
}

// ReadNewest is Read of the newest max rows (all of them when max is
// negative): the index gives them without the journal read whole.
func ReadNewest(j *journal.Journal, d journal.Deployment, max int) ([]Row, error) {
	var rows []Row
	err := Each(j, d, func(r Row) bool {
		rows = append(rows, r)
		return max < 0 || len(rows) < max
	})
	if err != nil && rows == nil {
		return nil, err
	}
	return rows, err
}

// Each calls fn with Read's rows, newest first, one at a time, until fn
// returns false. What of the journal could not be read is a RowsWarning.
func Each(j *journal.Journal, d journal.Deployment, fn func(Row) bool) error {
	warnings, err := j.EachTransaction(d, func(t journal.Transaction) bool { return fn(rowOf(t)) })
	if err != nil {
		return err
	}
	if len(warnings) > 0 {
		// A torn last line after a crash: what was read is listed.
		return views.RowsWarning(strings.Join(warnings, "; "))
	}
	return nil
}

// rowOf is a journaled transaction as the screen shows it.
func rowOf(t journal.Transaction) Row {
	row := Row{ID: t.ID, Kind: t.Ref, Status: t.Status, At: t.At, Profile: t.Profile}
	if k, ok := writeKinds[t.Op]; ok {
		row.Kind = k // a write's; a transaction's kind is its action
	}
	switch t.Kind {
	case journal.TxCreated:
		row.Sent = t.Request
	case journal.TxSettled:
		// The ids were lost with the answer; the user may have sent
		// it again, and the later request is listed too.
		switch t.Status {
		case journal.StatusNotApplied:
			row.ID = "(not created)"
		case journal.StatusResent:
			row.ID = "(no answer: may have been created; sent again)"
		default:
			row.ID = "(created; its id was lost with the answer)"
		}
	case journal.TxUnknown:
		row.ID, row.Status = "(no answer: may have been created)", statusUnknown
		if t.NoOutcome {
			row.ID = "(no outcome recorded: may have been created)"
		}
		row.op, row.ref, row.write = t.Op, t.Ref, t.Write
		// Decided once, here: the footer asks on every frame.
		if canReopen(t.Op, t.Ref, t.Request) {
			row.Body = t.Request
		}
	case journal.TxChain:
		row.Kind = cmp.Or(t.Op, "chain")
		row.what = signedFields(t.Signed)
		row.Block, row.Confirmations, row.GasUsed, row.RevertReason = t.Block, t.Confirmations, t.GasUsed, t.RevertReason
		if u, ok := act.UnsettledOf(t); ok {
			row.unsettled = &u
		}
	}
	return row
}

// signedFields name what a chain transaction did, from its journaled
// signature (wallet.Summary): the allocation and amount a claim withdrew
// or the amount a stake or an approve moved, the contract, the function.
func signedFields(data json.RawMessage) []widget.Field {
	var signed struct {
		Summary struct {
			To, ToLabel, Signature, ValueEther string
			Args                               []struct{ Name, Value, Units string }
			Withdrawal                         *struct{ Amount, AllocationID string }
		}
	}
	if len(data) == 0 || json.Unmarshal(data, &signed) != nil || signed.Summary.To == "" {
		return nil
	}
	s := signed.Summary
	var out []widget.Field
	if w := s.Withdrawal; w != nil {
		out = append(out, widget.Field{Label: "Allocation", Value: w.AllocationID}, widget.Field{Label: "Amount", Value: w.Amount + " tokens"})
	} else {
		for _, a := range s.Args {
			if a.Units != "" {
				out = append(out, widget.Field{Label: "Amount", Value: widget.FormatTokens(a.Units) + " tokens"})
				break
			}
		}
	}
	contract := s.To
	if s.ToLabel != "" {
		contract = s.ToLabel + " " + s.To
	}
	out = append(out, widget.Field{Label: "Contract", Value: contract}, widget.Field{Label: "Function", Value: s.Signature})
	if s.ValueEther != "" && s.ValueEther != "0" {
		out = append(out, widget.Field{Label: "Fee sent", Value: s.ValueEther + " ether"})
	}
	return out
}

// Reopener opens a write whose outcome is unknown, read back from the
// journal, in a page that checks it and can send the same bytes again; nil
// when canReopen says no.
type Reopener func(ctx *views.Context, op, ref, write string, body []byte, at time.Time) views.Screen

// canReopen says whether a Reopener can take the journaled write: only
// a body that encodes back to the same bytes may be sent again.
func canReopen(op, ref string, body []byte) bool {
	switch op {
	case act.OpTransaction:
		_, ok := views.ReadTransactionRequest(ref, body)
		return ok
	case act.OpSchedule:
		_, ok := views.ReadScheduleRequest(body)
		return ok
	case act.OpUploadURL:
		return views.SameJSON(body, &api.UploadURLRequest{})
	case act.OpCreative:
		return views.SameJSON(body, &api.CreateCreativeRequest{})
	case act.OpClaim:
		return views.SameJSON(body, &api.ClaimRequest{})
	}
	return false
}

// cannotReopen says why an UNKNOWN write cannot be opened again.
const cannotReopen = "the journal does not hold this request's body as it was sent: it cannot be checked or sent again from here"

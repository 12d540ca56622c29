// Package transactions holds the Transactions screen: what this machine
// created or sent, read back from the journal, with an UNKNOWN write
// opened again by a Reopener, and P opens the Safe proposals of this
// machine (views/proposals). It imports no other screen that writes, so
// that their tests can read their writes back here.
package transactions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/core/journal"
	"allot/core/rows"
	"allot/core/txlog"
	"allot/core/write"
	"allot/views"
	"allot/views/proposals"
	"allot/views/widget"
	"allot/wallet"
)

// Row is a transaction this machine created or sent (txlog.Row), with
// what the screen decides once, when the row is read: what it did, as
// its signature recorded it, and whether an unknown write can be opened
// again (the footer asks on every frame).
type Row struct {
	txlog.Row
	// Body is the request of an unknown outcome when it can be checked
	// or sent again (see canReopen); nil otherwise.
	Body json.RawMessage
	what []widget.Field
}

// keyUnknown opens a request whose outcome is unknown.
var keyUnknown = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "check/resend an UNKNOWN"))

// keyProposals opens the Safe proposals, which are no transactions until
// one is executed.
var keyProposals = key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "Safe proposals"))

// Fields are the row's details (rows.Transactions), what it did after its
// status, and the body a service transaction was created with.
func (r Row) Fields(now time.Time) []widget.Field {
	fields := views.Details(described(), "", now, r)
	at := slices.IndexFunc(fields, func(f widget.Field) bool { return f.Label == "Status" }) + 1
	what := slices.Clone(r.what)
	for _, f := range r.About() {
		what = append(what, widget.Field{Label: f.Label, Value: f.Value})
	}
	fields = slices.Insert(fields, at, what...)
	if r.Sent != nil {
		fields = append(fields, widget.Field{Label: "Body sent", Value: strings.Join(views.PrettyBody(r.Sent), "\n")})
	}
	return fields
}

// described is the screen's rows as rows.Transactions describes theirs.
func described() rows.Columns[Row] {
	return rows.Lift(rows.Transactions, func(r *Row) *txlog.Row { return &r.Row })
}

// New lists every transaction this machine created (with
// `allot tx`) or sent to a chain, newest first, from the local journal. It
// rereads the journal every few seconds, so what another allot process
// creates appears here. reopen opens an UNKNOWN write on enter: it is
// given, since each write is reopened by the family of screens that sends it.
func New(ctx *views.Context, reopen Reopener) views.Screen {
	l := views.NewList(ctx, "Transactions", widget.TableConfig[Row]{
		Columns:  views.Columns(described(), ""),
		ID:       func(r Row) string { return r.Kind + r.ID },
		CopyText: func(r Row) string { return r.ID },
		Empty:    "No transactions yet. Transactions you create or send with allot (operator forms on Contracts, claims, stakes, allot tx) appear here; P lists the Safe proposals.",
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
	l.Own = func(Row, bool) widget.Bindings {
		return widget.Bindings{{Key: keyProposals, Short: true, Run: func() tea.Cmd { return views.Navigate(proposals.New(ctx)) },
			Long: "the Safe proposals of this machine: their signatures, and signing or executing one"}}
	}
	l.Actions = []views.RowAction[Row]{{
		Key:  keyUnknown,
		Open: func(r Row) views.Screen { return reopen(ctx, r.Op, r.Ref, r.Write, r.Body, r.At) },
		Only: func(r Row) bool { return r.Status == txlog.StatusUnknown },
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
			rows[i].Status, rows[i].Behind = string(st.State), st.Behind
			rows[i].Block, rows[i].Confirmations, rows[i].GasUsed, rows[i].RevertReason = st.Block, st.Confirmations, st.GasUsed, st.RevertReason
		}
		rows[i].Confirmations = views.Confirmations(rows[i].Block, rows[i].Confirmations, head)
	}
	return rows
}

// Read lists what the journal says was created on deployment d
// (txlog.Read), as the screen's rows.
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

// ReadNewest is txlog.ReadNewest as the screen's rows; what of the
// journal could not be read is a RowsWarning, shown beside the rows.
func ReadNewest(j *journal.Journal, d journal.Deployment, max int) ([]Row, error) {
	logged, err := txlog.ReadNewest(j, d, max)
	var partial txlog.Warning
	if errors.As(err, &partial) {
		err = views.RowsWarning(partial)
	}
	if logged == nil && err != nil {
		return nil, err
	}
	rows := make([]Row, len(logged))
	for i, r := range logged {
		rows[i] = rowOf(r)
	}
	return rows, err
}

// rowOf is a journaled transaction as the screen shows it.
func rowOf(r txlog.Row) Row {
	row := Row{Row: r, what: signedFields(r.Signed)}
	if r.Status == txlog.StatusUnknown && canReopen(r.Op, r.Ref, r.Request) {
		row.Body = r.Request
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
// a body that reads back as its kind's request, encoding to the same
// bytes, may be checked or sent again.
func canReopen(op, ref string, body []byte) bool {
	k, ok := write.Of(op)
	return ok && k.AsSent(ref, body)
}

// cannotReopen says why an UNKNOWN write cannot be opened again.
const cannotReopen = "the journal does not hold this request's body as it was sent: it cannot be checked or sent again from here"

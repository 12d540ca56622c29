// Package transactions holds the Transactions screen: what this machine
// created or sent, read back from the journal, with an UNKNOWN write
// opened again by a Reopener. It imports no screen that writes, so that
// their tests can read their writes back here.
package transactions

import (
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
	// op, ref and write are the journaled write of an unknown outcome.
	op, ref, write string
}

// keyUnknown opens a request whose outcome is unknown.
var keyUnknown = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "check/resend an UNKNOWN"))

// statusUnknown marks a request whose answer never came.
const statusUnknown = "UNKNOWN"

// chainStatus is a final status as the journal holds it (wallet.Status's
// JSON).
type chainStatus struct {
	Block         uint64 `json:"block"`
	GasUsed       uint64 `json:"gasUsed"`
	Confirmations uint64 `json:"confirmations"`
	RevertReason  string `json:"revertReason"`
}

func (r *Row) apply(st chainStatus) {
	r.Block, r.Confirmations, r.GasUsed, r.RevertReason = st.Block, st.Confirmations, st.GasUsed, st.RevertReason
}

// statusText is the status with where the transaction was mined.
func (r Row) StatusText() string {
	switch {
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
	if r.Status == api.TransactionCreated {
		fields[2].Value = api.TransactionCreatedNote
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
			{Title: "Kind", Cell: func(r Row) string { return r.Kind }, MinWidth: 18, MaxWidth: 18, Sort: func(a, b Row) int { return strings.Compare(a.Kind, b.Kind) }},
			{Title: "Status", Cell: Row.StatusText, Text: true, MinWidth: 16, Flex: 3, Sort: func(a, b Row) int { return strings.Compare(a.Status, b.Status) }},
			{Title: "Created", Cell: func(r Row) string { return r.At.UTC().Format("2006-01-02 15:04:05") }, MinWidth: 19, Priority: 2, Sort: func(a, b Row) int { return a.At.Compare(b.At) }},
			{Title: "Profile", Cell: func(r Row) string { return r.Profile }, MinWidth: 8, Priority: 3},
		},
		ID:       func(r Row) string { return r.Kind + r.ID },
		CopyText: func(r Row) string { return r.ID },
		Empty:    "No transactions yet. Transactions you create or send with allot (operator forms on Contracts, claims, stakes, allot tx) appear here.",
	}, func(r Row) []widget.Field { return r.Fields(ctx.Now()) })
	j := ctx.Journal
	d := ctx.Session.Deployment()
	l.Fetch = func(context.Context) ([]Row, error) { return Read(j, d) }
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
			return tea.Batch(t.Reload(), pollLater())
		}
		return pollLater()
	case views.TxStatusMsg:
		t.live[msg.Status.Hash.Hex()] = msg.Status
		return t.SetRows(t.merge())
	}
	return t.List.Update(msg)
}

// merge lays the live statuses over the journal's rows.
func (t *transactions) merge() []Row {
	rows := slices.Clone(t.rows)
	for i := range rows {
		if st, ok := t.live[rows[i].ID]; ok && rows[i].Block == 0 {
			rows[i].Status = string(st.State)
			rows[i].apply(chainStatus{Block: st.Block, GasUsed: st.GasUsed, Confirmations: st.Confirmations, RevertReason: st.RevertReason})
		}
	}
	return rows
}

// writeKinds name the writes of other operations than transactions/create
// in the Kind column.
var writeKinds = map[string]string{
	act.OpSchedule:  "schedule",
	act.OpUploadURL: "creative upload URL",
	act.OpCreative:  "creative",
	act.OpClaim:     "claim request",
}

// Read lists what the journal says was created on deployment
// d: the transactions created, the chain transactions sent, and every
// write whose outcome is unknown, of any kind. A write whose outcome was
// never recorded (the program ended while it was in flight) is unknown
// too, in every run after, until a later outcome settles it.
func Read(j *journal.Journal, d journal.Deployment) ([]Row, error) {
	if j == nil {
		return nil, fmt.Errorf("the local journal is not available")
	}
	res, err := j.Read()
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, w := range journal.Writes(res.Entries) {
		e := w.Request
		if !d.Owns(e) {
			continue
		}
		at := e.At
		if w.Outcome != nil {
			at = w.Outcome.At
		}
		switch {
		case w.Settled() && e.Op == act.OpTransaction && len(w.Outcome.Data) > 0:
			var created api.TransactionsResult
			if json.Unmarshal(w.Outcome.Data, &created) != nil {
				continue
			}
			// Shown as the operator's result page and `allot tx` show
			// it: no call reports a change of the PENDING it answers.
			for _, tx := range created.Transactions {
				status, _ := tx.Shown()
				rows = append(rows, Row{ID: tx.TransactionID, Kind: e.Ref, Status: status, At: at, Profile: e.Profile, Sent: e.Data})
			}
		case w.Outcome != nil && (w.Outcome.Status == act.StatusApplied || w.Outcome.Status == act.StatusNotApplied || w.Outcome.Status == act.StatusResent):
			// An unknown outcome a check settled (its ids were lost with
			// the answer), or the user sent again: the later request is
			// listed too.
			id := "(created; its id was lost with the answer)"
			switch w.Outcome.Status {
			case act.StatusNotApplied:
				id = "(not created)"
			case act.StatusResent:
				id = "(no answer: may have been created; sent again)"
			}
			kind := e.Ref
			if k, ok := writeKinds[e.Op]; ok {
				kind = k
			}
			rows = append(rows, Row{ID: id, Kind: kind, Status: w.Outcome.Status, At: at, Profile: e.Profile})
		case !w.Settled():
			kind := e.Ref // the action of a transaction
			if k, ok := writeKinds[e.Op]; ok {
				kind = k
			}
			row := Row{ID: "(no answer: may have been created)", Kind: kind, Status: statusUnknown, At: at, Profile: e.Profile, op: e.Op, ref: e.Ref, write: e.Write}
			if w.Outcome == nil {
				row.ID = "(no outcome recorded: may have been created)"
			}
			// Decided once, here: the footer asks on every frame.
			if canReopen(e.Op, e.Ref, e.Data) {
				row.Body = e.Data
			}
			rows = append(rows, row)
		}
	}
	// Chain transactions: later entries update a hash's status.
	index := map[string]int{}
	for _, e := range res.Entries {
		if e.Kind != journal.KindTransaction || e.Ref == "" || !d.Owns(e) {
			continue
		}
		var st chainStatus
		_ = json.Unmarshal(e.Data, &st) // sending and pending entries hold no status: zero
		if i, ok := index[e.Ref]; ok {
			rows[i].Status = e.Status
			rows[i].apply(st)
			continue
		}
		index[e.Ref] = len(rows)
		row := Row{ID: e.Ref, Kind: orDefault(e.Op, "chain"), Status: e.Status, At: e.At, Profile: e.Profile}
		row.apply(st)
		rows = append(rows, row)
	}
	// Newest first; the journal's order breaks ties.
	slices.Reverse(rows)
	slices.SortStableFunc(rows, func(a, b Row) int { return b.At.Compare(a.At) })
	if len(res.Warnings) > 0 {
		// A torn last line after a crash: what was read is listed.
		return rows, views.RowsWarning(strings.Join(res.Warnings, "; "))
	}
	return rows, nil
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

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

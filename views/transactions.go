package views

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/app/journal"
	"allot/views/widget"
)

// txRow is a transaction this machine created or sent, read back from the
// local journal.
type txRow struct {
	ID      string // the service's transaction id, or a chain hash
	Kind    string // the action, or "chain"
	Status  string
	At      time.Time
	Profile string
}

// NewTransactions lists every transaction this machine created (with
// `allot tx`) or sent to a chain, newest first, from the local journal. It
// rereads the journal every few seconds, so what another allot process
// creates appears here.
func NewTransactions(ctx *Context) Screen {
	l := newList(ctx, "Transactions", widget.TableConfig[txRow]{
		Columns: []widget.Column[txRow]{
			{Title: "Transaction", Cell: func(r txRow) string { return r.ID }, MinWidth: 14, Flex: 3},
			{Title: "Kind", Cell: func(r txRow) string { return r.Kind }, MinWidth: 10, Flex: 1, Sort: func(a, b txRow) int { return cmpString(a.Kind, b.Kind) }},
			{Title: "Status", Cell: func(r txRow) string { return r.Status }, MinWidth: 8, Sort: func(a, b txRow) int { return cmpString(a.Status, b.Status) }},
			{Title: "Created", Cell: func(r txRow) string { return r.At.UTC().Format("2006-01-02 15:04:05") }, MinWidth: 19, Priority: 2, Sort: func(a, b txRow) int { return a.At.Compare(b.At) }},
			{Title: "Profile", Cell: func(r txRow) string { return r.Profile }, MinWidth: 8, Priority: 3},
		},
		ID:       func(r txRow) string { return r.Kind + r.ID },
		CopyText: func(r txRow) string { return r.ID },
		Empty:    "No transactions yet. Transactions you create with allot (allot tx initialize|start|fund) appear here.",
	}, func(r txRow) []widget.Field {
		return []widget.Field{
			{Label: "Transaction", Value: r.ID},
			{Label: "Kind", Value: r.Kind},
			{Label: "Status", Value: r.Status},
			{Label: "Created", Value: widget.FormatTime(r.At, ctx.Now())},
			{Label: "Profile", Value: r.Profile},
		}
	})
	j := ctx.Journal
	l.fetch = func(context.Context) ([]txRow, error) { return readTransactions(j) }
	return &transactions{list: l}
}

type transactions struct{ *list[txRow] }

// journalPoll is how often the screen rereads the journal.
const journalPoll = 3 * time.Second

type pollJournal struct{}

func (t *transactions) Init() tea.Cmd {
	return tea.Batch(t.list.Init(), tea.Tick(journalPoll, func(time.Time) tea.Msg { return pollJournal{} }))
}

func (t *transactions) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(pollJournal); ok {
		return tea.Batch(t.reload(), tea.Tick(journalPoll, func(time.Time) tea.Msg { return pollJournal{} }))
	}
	return t.list.Update(msg)
}

func readTransactions(j *journal.Journal) ([]txRow, error) {
	if j == nil {
		return nil, fmt.Errorf("the local journal is not available")
	}
	res, err := j.Read()
	if err != nil {
		return nil, err
	}
	var rows []txRow
	index := map[string]int{}
	for _, e := range res.Entries {
		switch {
		case e.Kind == journal.KindOutcome && e.Op == "transactions/create" && len(e.Data) > 0:
			var created api.TransactionsResult
			if json.Unmarshal(e.Data, &created) != nil {
				continue
			}
			for _, tx := range created.Transactions {
				rows = append(rows, txRow{ID: tx.TransactionID, Kind: e.Ref, Status: tx.Status, At: e.At, Profile: e.Profile})
			}
		case e.Kind == journal.KindOutcome && e.Op == "transactions/create" && e.Status == "unknown":
			rows = append(rows, txRow{ID: "(no answer: may have been created)", Kind: e.Ref, Status: "UNKNOWN", At: e.At, Profile: e.Profile})
		case e.Kind == journal.KindTransaction && e.Ref != "":
			// A chain transaction: later entries update its status.
			if i, ok := index[e.Ref]; ok {
				rows[i].Status = e.Status
				continue
			}
			index[e.Ref] = len(rows)
			rows = append(rows, txRow{ID: e.Ref, Kind: orDefault(e.Op, "chain"), Status: e.Status, At: e.At, Profile: e.Profile})
		}
	}
	// Newest first.
	for i, k := 0, len(rows)-1; i < k; i, k = i+1, k-1 {
		rows[i], rows[k] = rows[k], rows[i]
	}
	return rows, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

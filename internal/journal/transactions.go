package journal

import (
	"encoding/json"
	"slices"
	"time"

	"allot/api"
)

// TxKind says what the journal knows of a Transaction.
type TxKind int

const (
	// TxCreated is a transaction the service created: ID is its id.
	TxCreated TxKind = iota
	// TxSettled is a write whose answer was lost, settled since by a
	// check (StatusApplied, StatusNotApplied) or sent again
	// (StatusResent): its ids were lost with the answer.
	TxSettled
	// TxUnknown is a write whose answer never came, or whose outcome was
	// never recorded (the program ended while it was in flight).
	TxUnknown
	// TxChain is a transaction sent to a chain: ID is its hash, Status
	// its latest.
	TxChain
)

// Transaction is one thing this machine created or sent, as the journal
// tells it.
type Transaction struct {
	Kind TxKind
	// ID is the service's transaction id or a chain hash; "" when the
	// journal holds none.
	ID string
	// Op, Ref and Write are the journaled write (a chain transaction's Op
	// is its action, "" when none was recorded).
	Op, Ref, Write string
	// Status is the service's as shown (api.Transaction.Shown), how a
	// settled write was settled, StatusUnknown, or a chain status.
	Status string
	// NoOutcome: an unknown write whose outcome was never recorded.
	NoOutcome bool
	At        time.Time
	Profile   string
	// Chain transactions: where they were mined, once they are.
	Block, Confirmations, GasUsed uint64
	RevertReason                  string
	// Request is the body of the write as journaled: the transaction a
	// created one was asked for, or the request of an unknown one.
	Request json.RawMessage
	// Signed is what a chain transaction's signature entry recorded of it
	// (wallet's summary: its target, function, arguments); nil when none
	// was recorded.
	Signed json.RawMessage
}

// chainStatus is a final chain status as the journal holds it
// (wallet.Status's JSON).
type chainStatus struct {
	Block         uint64 `json:"block"`
	GasUsed       uint64 `json:"gasUsed"`
	Confirmations uint64 `json:"confirmations"`
	RevertReason  string `json:"revertReason"`
}

// Transactions lists what the journal says was created on deployment d,
// newest first (the journal's order breaks ties): the transactions the
// service created, the chain transactions sent with their latest status,
// and every write whose answer was lost, of any kind, unknown until a
// later outcome settles it. The warnings say what of the journal could
// not be read (a torn last line after a crash); what was read is listed.
func (j *Journal) Transactions(d Deployment) ([]Transaction, []string, error) {
	if j == nil {
		return nil, nil, ErrNoJournal
	}
	res, err := j.Read()
	if err != nil {
		return nil, nil, err
	}
	var out []Transaction
	for _, w := range Writes(res.Entries) {
		e := w.Request
		if !d.Owns(e) {
			continue
		}
		t := Transaction{Op: e.Op, Ref: e.Ref, Write: e.Write, At: e.At, Profile: e.Profile}
		if w.Outcome != nil {
			t.At = w.Outcome.At
		}
		switch {
		case w.Settled() && e.Op == OpTransaction && len(w.Outcome.Data) > 0:
			var created api.TransactionsResult
			if json.Unmarshal(w.Outcome.Data, &created) != nil {
				continue
			}
			// Shown as the operator's result page and `allot tx` show
			// it: no call reports a change of the PENDING it answers.
			for _, tx := range created.Transactions {
				c := t
				c.Kind, c.ID, c.Request = TxCreated, tx.TransactionID, e.Data
				c.Status, _ = tx.Shown()
				out = append(out, c)
			}
		case w.Outcome != nil && (w.Outcome.Status == StatusApplied || w.Outcome.Status == StatusNotApplied || w.Outcome.Status == StatusResent):
			t.Kind, t.Status = TxSettled, w.Outcome.Status
			out = append(out, t)
		case !w.Settled():
			t.Kind, t.Status, t.NoOutcome, t.Request = TxUnknown, StatusUnknown, w.Outcome == nil, e.Data
			out = append(out, t)
		}
	}
	// Chain transactions: later entries update a hash's status; the
	// signature entry says what was signed.
	index := map[string]int{}
	signed := map[string]json.RawMessage{}
	for _, e := range res.Entries {
		if e.Kind == KindSignature && e.Ref != "" && d.Owns(e) {
			signed[e.Ref] = e.Data
		}
	}
	for _, e := range res.Entries {
		if e.Kind != KindTransaction || e.Ref == "" || !d.Owns(e) {
			continue
		}
		var st chainStatus
		_ = json.Unmarshal(e.Data, &st) // sending and pending entries hold no status: zero
		i, ok := index[e.Ref]
		if !ok {
			i = len(out)
			index[e.Ref] = i
			out = append(out, Transaction{Kind: TxChain, ID: e.Ref, Op: e.Op, Ref: e.Ref, At: e.At, Profile: e.Profile, Signed: signed[e.Ref]})
		}
		out[i].Status = e.Status
		out[i].Block, out[i].Confirmations, out[i].GasUsed, out[i].RevertReason = st.Block, st.Confirmations, st.GasUsed, st.RevertReason
	}
	slices.Reverse(out)
	slices.SortStableFunc(out, func(a, b Transaction) int { return b.At.Compare(a.At) })
	return out, res.Warnings, nil
}

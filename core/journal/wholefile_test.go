package journal

import (
	"encoding/json"
	"slices"

	"allot/api"
	"allot/core/write"
)

// wholeFileTransactions is how Transactions read before the index: the
// whole journal parsed on every call. Tests hold the index's answers to
// it, and benchmarks run it beside them.
func wholeFileTransactions(j *Journal, d Deployment) ([]Transaction, []string, error) {
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
		case w.Settled() && e.Op == write.OpTransaction && len(w.Outcome.Data) > 0:
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

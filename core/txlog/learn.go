package txlog

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/core/journal"
	"allot/wallet"
)

// Learned is what the chain told of unsettled transactions, by hash.
type Learned map[common.Hash]wallet.Status

// Apply shows in r what was learned of its transaction: a queued one is
// not journaled (it has no end yet), so only this says it.
func (l Learned) Apply(r Row) Row {
	if r.Unsettled == nil {
		return r
	}
	st, ok := l[r.Unsettled.Hash]
	if !ok {
		return r
	}
	r.Status, r.Behind = string(st.State), st.Behind
	r.Block, r.Confirmations, r.GasUsed, r.RevertReason = st.Block, st.Confirmations, st.GasUsed, st.RevertReason
	return r
}

// MaxLearnScan bounds the rows looked through for transactions to ask the
// chain about: the newest, as the Transactions screen shows.
const MaxLearnScan = 1000

// LearnTimeout bounds one look at the chain: a node that does not answer
// delays the list by this much at most, and the rest is asked next time.
const LearnTimeout = 10 * time.Second

// Learn asks the chain about the unsettled chain transactions among the
// newest rows of deployment d, and the journal records the outcomes it
// tells (act.Recorder.Learn), so that a listing that follows reads them;
// what is learned but has no end (a transaction still queued) is
// returned, for the listing to Apply.
func Learn(ctx context.Context, rec *act.Recorder, node wallet.Node, chainID uint64, j *journal.Journal, d journal.Deployment) (Learned, error) {
	if node == nil || rec == nil {
		return nil, nil
	}
	rows, err := ReadNewest(j, d, MaxLearnScan)
	if rows == nil {
		return nil, err
	}
	return LearnRows(ctx, rec, node, chainID, rows), nil
}

// LearnRows is Learn of rows already read, within LearnTimeout.
func LearnRows(ctx context.Context, rec *act.Recorder, node wallet.Node, chainID uint64, rows []Row) Learned {
	txs := Unsettled(rows)
	if node == nil || rec == nil || len(txs) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, LearnTimeout)
	defer cancel()
	return Learned(rec.Learn(ctx, node, chainID, txs))
}

// Unsettled are the rows' chain transactions without a final status,
// newest first, at most act.MaxLearn.
func Unsettled(rows []Row) []act.Unsettled {
	var txs []act.Unsettled
	for _, r := range rows {
		if r.Unsettled != nil && len(txs) < act.MaxLearn {
			txs = append(txs, *r.Unsettled)
		}
	}
	return txs
}

// QueuedBehind is, for a transaction the node holds in its queue, the
// nonce that must be mined first.
func (r Row) QueuedBehind() (uint64, bool) {
	return r.Behind, r.Status == string(wallet.StateQueued)
}

package transactions

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/act"
	"allot/internal/journal"
	"allot/wallet"
)

// learn asks the chain about the rows' chain transactions that the journal
// holds without a final status, newest first and at most act.MaxLearn of
// them (Recorder.Learn, which journals each outcome found), and shows what
// it learned in the rows: a transaction mined after allot stopped
// following it is not pending forever.
func learn(ctx context.Context, rec *act.Recorder, node wallet.Node, chainID uint64, rows []Row) {
	if node == nil || rec == nil {
		return
	}
	txs := unsettled(rows)
	if len(txs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, learnTimeout)
	defer cancel()
	learned := Learned(rec.Learn(ctx, node, chainID, txs))
	for i := range rows {
		rows[i] = learned.Apply(rows[i])
	}
}

// Learned is what the chain told of unsettled transactions, by hash.
type Learned map[common.Hash]wallet.Status

// Apply shows in r what was learned of its transaction: a queued one is
// not journaled (it has no end yet), so only this says it.
func (l Learned) Apply(r Row) Row {
	if r.unsettled == nil {
		return r
	}
	st, ok := l[r.unsettled.Hash]
	if !ok {
		return r
	}
	r.Status, r.behind = string(st.State), st.Behind
	r.Block, r.Confirmations, r.GasUsed, r.RevertReason = st.Block, st.Confirmations, st.GasUsed, st.RevertReason
	return r
}

// maxLearnScan bounds the rows `allot transactions` looks through for
// transactions to ask the chain about: the newest, as the screen shows.
const maxLearnScan = screenRows

// Learn is learn for `allot transactions`, before it lists: the chain is
// asked about the unsettled chain transactions among the newest rows of
// deployment d, and the journal records the outcomes it tells, so that
// the listing that follows reads them; what is learned but has no end (a
// transaction still queued) is returned, for the listing to Apply.
func Learn(ctx context.Context, rec *act.Recorder, node wallet.Node, chainID uint64, j *journal.Journal, d journal.Deployment) (Learned, error) {
	if node == nil || rec == nil {
		return nil, nil
	}
	rows, err := ReadNewest(j, d, maxLearnScan)
	if rows == nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, learnTimeout)
	defer cancel()
	return Learned(rec.Learn(ctx, node, chainID, unsettled(rows))), nil
}

// learnTimeout bounds one look at the chain: a node that does not answer
// delays the list by this much at most, and the rest is asked next time.
const learnTimeout = 10 * time.Second

// unsettled are the rows' chain transactions without a final status,
// newest first, at most act.MaxLearn.
func unsettled(rows []Row) []act.Unsettled {
	var txs []act.Unsettled
	for _, r := range rows {
		if r.unsettled != nil && len(txs) < act.MaxLearn {
			txs = append(txs, *r.unsettled)
		}
	}
	return txs
}

// QueuedBehind is, for a transaction the node holds in its queue, the
// nonce that must be mined first.
func (r Row) QueuedBehind() (uint64, bool) {
	return r.behind, r.Status == string(wallet.StateQueued)
}

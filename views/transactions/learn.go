package transactions

import (
	"context"

	"allot/core/act"
	"allot/core/txlog"
	"allot/wallet"
)

// learn asks the chain about the rows' chain transactions that the journal
// holds without a final status, newest first and at most act.MaxLearn of
// them (txlog.LearnRows, which journals each outcome found), and shows
// what it learned in the rows: a transaction mined after allot stopped
// following it is not pending forever.
func learn(ctx context.Context, rec *act.Recorder, node wallet.Node, chainID uint64, rows []Row) {
	logged := make([]txlog.Row, len(rows))
	for i, r := range rows {
		logged[i] = r.Row
	}
	learned := txlog.LearnRows(ctx, rec, node, chainID, logged)
	for i := range rows {
		rows[i].Row = learned.Apply(rows[i].Row)
	}
}

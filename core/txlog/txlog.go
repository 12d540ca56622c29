// Package txlog reads back, from the journal, what this machine created
// or sent on a deployment: the service's transactions and other writes,
// and the chain transactions it signed, newest first, as the Transactions
// screen and `allot transactions` list them. It knows nothing of screens.
package txlog

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"allot/core/act"
	"allot/core/journal"
	"allot/core/write"
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
	// Sent is the body a service transaction was created with.
	Sent json.RawMessage
	// Signed is a chain transaction's journaled signature (what it did:
	// act.Signed), when it was recorded.
	Signed json.RawMessage
	// Op, Ref, Write and Request are the journaled write of an unknown
	// outcome: its operation, what it was about, its id and its body.
	Op, Ref, Write string
	Request        json.RawMessage
	// write is the journaled write a service row is of, for About.
	write struct {
		op, ref string
		body    json.RawMessage
	}
	// Unsettled is a chain transaction the journal holds without a final
	// status, for the chain to be asked about it (Learn); Behind the
	// nonce a queued transaction waits for.
	Unsettled *act.Unsettled
	Behind    uint64
}

// StatusUnknown marks a request whose answer never came.
const StatusUnknown = "UNKNOWN"

// StatusText is the status with where the transaction was mined.
func (r Row) StatusText() string {
	switch {
	case r.Status == string(wallet.StateQueued):
		return fmt.Sprintf("queued behind nonce %d", r.Behind)
	case r.RevertReason != "":
		return fmt.Sprintf("%s in block %d: %s", r.Status, r.Block, r.RevertReason)
	case r.Block > 0:
		return fmt.Sprintf("%s, block %d", r.Status, r.Block)
	}
	return r.Status
}

// About is what the write of a service row asked for, as its kind
// describes it (write.Kind.Describe); nil for a chain transaction, or a
// write whose body the journal does not hold. It reads the body each time
// it is asked: ask it of the rows shown, not of every row read.
func (r Row) About() []write.Field {
	k, ok := write.Of(r.write.op)
	if !ok || len(r.write.body) == 0 {
		return nil
	}
	return k.Describe(r.write.ref, r.write.body)
}

// Warning is what of the journal could not be read, beside the rows that
// could: a torn last line after a crash.
type Warning string

func (w Warning) Error() string { return string(w) }

// Read lists what the journal says was created on deployment d
// (journal.Transactions). A write whose outcome was never recorded (the
// program ended while it was in flight) is unknown too, in every run
// after, until a later outcome settles it.
func Read(j *journal.Journal, d journal.Deployment) ([]Row, error) { return ReadNewest(j, d, -1) }

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
// returns false. What of the journal could not be read is a Warning.
func Each(j *journal.Journal, d journal.Deployment, fn func(Row) bool) error {
	warnings, err := j.EachTransaction(d, func(t journal.Transaction) bool { return fn(rowOf(t)) })
	if err != nil {
		return err
	}
	if len(warnings) > 0 {
		return Warning(strings.Join(warnings, "; "))
	}
	return nil
}

// rowOf is a journaled transaction as a row.
func rowOf(t journal.Transaction) Row {
	row := Row{ID: t.ID, Kind: write.Label(t.Op, t.Ref), Status: t.Status, At: t.At, Profile: t.Profile}
	row.write.op, row.write.ref, row.write.body = t.Op, t.Ref, t.Request
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
		row.ID, row.Status = "(no answer: may have been created)", StatusUnknown
		if t.NoOutcome {
			row.ID = "(no outcome recorded: may have been created)"
		}
		row.Op, row.Ref, row.Write, row.Request = t.Op, t.Ref, t.Write, t.Request
	case journal.TxChain:
		row.Kind = cmp.Or(t.Op, "chain")
		row.Signed = t.Signed
		row.Block, row.Confirmations, row.GasUsed, row.RevertReason = t.Block, t.Confirmations, t.GasUsed, t.RevertReason
		if u, ok := act.UnsettledOf(t); ok {
			row.Unsettled = &u
		}
	}
	return row
}

package rows

import (
	"strconv"
	"strings"
	"time"

	"allot/api"
	"allot/core/txlog"
	"allot/wallet"
)

// Transactions describes what this machine created or sent (txlog.Row).
// A chain transaction's block is in its status's cell ("success, block
// 12"); the CSV has it in a column of its own, and the details what the
// chain said of it.
var Transactions = Columns[txlog.Row]{
	{Title: "Transaction", Field: "transaction", Width: Width{Min: 14, Flex: 3},
		Value: String(func(r *txlog.Row) string { return r.ID })},
	{Title: "Kind", Field: "kind", Width: Width{Min: 18, Max: 18},
		Value:   String(func(r *txlog.Row) string { return r.Kind }),
		Compare: func(a, b *txlog.Row) int { return compareFold(a.Kind, b.Kind) }},
	// Short: a revert's reason is whole in the details, and the ids and
	// the pane need the room a long one took.
	{Title: "Status", Field: "status", Width: Width{Free: true, Min: 16, Max: 22, Flex: 1},
		Value:   String(func(r *txlog.Row) string { return r.StatusText() }),
		Note:    statusNote,
		Tone:    statusTone,
		Compare: func(a, b *txlog.Row) int { return compareFold(a.Status, b.Status) }},
	{Title: "Block", Field: "block", Kind: Count, Out: Dashboard | Table,
		Value: Positive(func(r *txlog.Row) uint64 { return r.Block })},
	{Title: "Confirmations", Kind: Count, Out: Dashboard | Table | CSV, Value: mined(func(r *txlog.Row) uint64 { return r.Confirmations })},
	{Title: "Gas used", Kind: Count, Out: Dashboard | Table | CSV, Value: mined(func(r *txlog.Row) uint64 { return r.GasUsed })},
	{Title: "Revert reason", Out: Dashboard | Table | CSV, Value: String(func(r *txlog.Row) string { return r.RevertReason })},
	{Title: "Created", Field: "created", Kind: Second, Width: Width{Min: 19, Priority: 2},
		Value:   Time(func(r *txlog.Row) time.Time { return r.At }),
		Compare: func(a, b *txlog.Row) int { return a.At.Compare(b.At) }},
	{Title: "Profile", Field: "profile", Width: Width{Min: 8, Priority: 3},
		Value: String(func(r *txlog.Row) string { return r.Profile })},
}

// statusNote is the status as the details say it: what CREATED means, how
// far a queued transaction waits.
func statusNote(r *txlog.Row) string {
	switch r.Status {
	case api.TransactionCreated:
		return api.TransactionCreatedNote
	case string(wallet.StateQueued):
		return wallet.Status{State: wallet.StateQueued, Behind: r.Behind}.QueuedNote()
	}
	return r.Status
}

// statusTone is what a status says: mined, failed, or not known.
func statusTone(r *txlog.Row) Tone {
	switch r.Status {
	case string(wallet.StateSuccess):
		return Pass
	case string(wallet.StateReverted), string(wallet.StateDropped):
		return Fail
	case txlog.StatusUnknown:
		return Unknown
	}
	return Plain
}

// mined appends what the chain said of a mined transaction: nothing before
// it is mined, a count (0 too) after.
func mined(get func(*txlog.Row) uint64) func(*txlog.Row, []byte) []byte {
	return func(r *txlog.Row, dst []byte) []byte {
		if r.Block == 0 {
			return dst
		}
		return strconv.AppendUint(dst, get(r), 10)
	}
}

// compareFold orders a and b ignoring case: "claim" sorts beside
// "CREATIVE", not after every upper-case kind.
func compareFold(a, b string) int {
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

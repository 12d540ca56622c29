package journal

import (
	"encoding/json"
	"errors"
	"time"
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
// EachTransaction gives them one at a time.
func (j *Journal) Transactions(d Deployment) ([]Transaction, []string, error) {
	var out []Transaction
	collect := func(t Transaction) bool {
		out = append(out, t)
		return true
	}
	warnings, err := j.EachTransaction(d, collect)
	if errors.Is(err, errChanged) {
		out = nil // none were shown: read again, from the index rebuilt
		warnings, err = j.EachTransaction(d, collect)
	}
	if err != nil {
		return nil, nil, err
	}
	return out, warnings, nil
}

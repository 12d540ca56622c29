package act

import (
	"context"
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/core/journal"
	"allot/wallet"
)

// Unsettled is a chain transaction the journal holds without a final
// status (sending, pending, unknown, queued): allot stopped following it
// (it exited, the tracker timed out, the node queued it) before it ended.
type Unsettled struct {
	Op      string
	Hash    common.Hash
	From    common.Address
	Nonce   uint64
	ChainID uint64
}

// MaxLearn bounds the transactions one look asks the node about: a journal
// of thousands of transactions never settled must not turn opening the
// Transactions screen into thousands of calls. The newest come first.
const MaxLearn = 16

// UnsettledOf is t when it is a chain transaction without a final status
// whose signature the journal holds (it says who sent it on which nonce).
func UnsettledOf(t journal.Transaction) (Unsettled, bool) {
	if t.Kind != journal.TxChain || final(t.Status) || len(t.Signed) == 0 {
		return Unsettled{}, false
	}
	var signed struct {
		From    common.Address `json:"from"`
		Nonce   *uint64        `json:"nonce"`
		ChainID uint64         `json:"chainId"`
	}
	if json.Unmarshal(t.Signed, &signed) != nil || signed.Nonce == nil || signed.From == (common.Address{}) || !isHash(t.ID) {
		return Unsettled{}, false
	}
	return Unsettled{Op: t.Op, Hash: common.HexToHash(t.ID), From: signed.From, Nonce: *signed.Nonce, ChainID: signed.ChainID}, true
}

// isHash reports whether s is a transaction hash as the journal writes it.
func isHash(s string) bool {
	b, err := hexutil.Decode(s)
	return err == nil && len(b) == common.HashLength
}

// final reports whether a chain transaction's journaled status is its end:
// mined, dropped, or refused by the node ("failed", never sent).
func final(status string) bool {
	switch wallet.State(status) {
	case wallet.StateSuccess, wallet.StateReverted, wallet.StateDropped:
		return true
	}
	return status == "failed"
}

// Learn asks node once about each of txs on chain chainID, at most
// MaxLearn of them in order, and journals the final status of each found
// mined or dropped (as Final does): the journal learns an outcome that
// came after allot stopped following the transaction. It returns what it
// learned, final or not (a transaction still queued says so), by hash. A
// look that fails is skipped; ctx ends the looks, and what was learned by
// then is kept. A read-only profile journals nothing.
func (r *Recorder) Learn(ctx context.Context, node wallet.Node, chainID uint64, txs []Unsettled) map[common.Hash]wallet.Status {
	learned := map[common.Hash]wallet.Status{}
	if node == nil {
		return learned
	}
	looks := 0
	for _, u := range txs {
		if looks == MaxLearn || ctx.Err() != nil {
			break
		}
		if u.ChainID != chainID {
			continue // another chain's: this node cannot tell
		}
		looks++
		st, isFinal, err := wallet.Outcome(ctx, node, u.Hash, u.From, u.Nonce)
		if err != nil {
			continue
		}
		learned[u.Hash] = st
		if isFinal && r.refusal() == nil {
			r.Final(u.Op, st)
		}
	}
	return learned
}

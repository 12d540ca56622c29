package act

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/core/journal"
	"allot/wallet"
)

// minedNode has mined every transaction it is asked about, at block 5,
// and counts the looks.
type minedNode struct {
	wallet.Node // every other method: not called

	mu    sync.Mutex
	looks int
}

func (n *minedNode) TransactionReceipt(_ context.Context, hash common.Hash) (*types.Receipt, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.looks++
	return &types.Receipt{Status: types.ReceiptStatusSuccessful, TxHash: hash, BlockNumber: big.NewInt(5), GasUsed: 21_000}, nil
}

func (n *minedNode) BlockNumber(context.Context) (uint64, error) { return 6, nil }

// silentNode knows nothing of any transaction, and the account has mined
// nothing.
type silentNode struct{ wallet.Node }

func (silentNode) TransactionReceipt(context.Context, common.Hash) (*types.Receipt, error) {
	return nil, ethereum.NotFound
}
func (silentNode) TransactionByHash(context.Context, common.Hash) (*types.Transaction, bool, error) {
	return nil, false, ethereum.NotFound
}
func (silentNode) NonceAt(context.Context, common.Address, *big.Int) (uint64, error) { return 0, nil }

func unsettledTxs(n int, chainID uint64) []Unsettled {
	txs := make([]Unsettled, n)
	for i := range txs {
		txs[i] = Unsettled{Op: "claim", Hash: common.BigToHash(big.NewInt(int64(i + 1))), From: common.HexToAddress("0xa1"), Nonce: uint64(i), ChainID: chainID}
	}
	return txs
}

// TestLearnJournalsOutcomesBounded: what the chain mined is journaled as
// its final status, for at most MaxLearn transactions a look, only those
// of the node's chain; a cancelled look asks nothing; a read-only profile
// journals nothing; a transaction the node does not know, whose nonce is
// not passed, is not concluded.
func TestLearnJournalsOutcomesBounded(t *testing.T) {
	rec, j := newRecorder(t)
	node := &minedNode{}
	txs := append(unsettledTxs(MaxLearn+4, 1), Unsettled{Op: "stake", Hash: common.Hash{0xee}, ChainID: 1})
	txs[0].ChainID = 5 // another chain's: skipped, not counted
	learned := rec.Learn(context.Background(), node, 1, txs)
	if node.looks != MaxLearn || len(learned) != MaxLearn {
		t.Fatalf("%d looks, %d learned; want %d", node.looks, len(learned), MaxLearn)
	}
	if _, ok := learned[txs[0].Hash]; ok {
		t.Error("learned a transaction of another chain")
	}
	entries, err := j.Entries(journal.Match{Kind: journal.KindTransaction})
	if err != nil || len(entries) != MaxLearn {
		t.Fatalf("%d entries journaled (%v), want %d", len(entries), err, MaxLearn)
	}
	var st struct {
		Status        string `json:"status"`
		Block         uint64 `json:"block"`
		Confirmations uint64 `json:"confirmations"`
	}
	if e := entries[0]; e.Status != "success" || json.Unmarshal(e.Data, &st) != nil || st.Block != 5 || st.Confirmations != 2 {
		t.Errorf("entry %+v, want success in block 5 with 2 confirmations", e)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	node.looks = 0
	if learned := rec.Learn(ctx, node, 1, txs); node.looks != 0 || len(learned) != 0 {
		t.Errorf("a cancelled look asked %d times", node.looks)
	}

	ro := &Recorder{Journal: j, ReadOnly: errors.New("read-only")}
	if learned := ro.Learn(context.Background(), node, 1, unsettledTxs(2, 1)); len(learned) != 2 {
		t.Errorf("read-only learned %d, want 2 (shown, not journaled)", len(learned))
	}
	if entries, _ := j.Entries(journal.Match{Kind: journal.KindTransaction}); len(entries) != MaxLearn {
		t.Errorf("read-only journaled: %d entries", len(entries))
	}

	learned = rec.Learn(context.Background(), silentNode{}, 1, unsettledTxs(1, 1))
	if st := learned[unsettledTxs(1, 1)[0].Hash]; st.State != wallet.StatePending {
		t.Errorf("unknown to the node, nonce not passed: %+v, want pending", st)
	}
}

// TestUnsettledOf: only a chain transaction without a final status whose
// signature says who sent it on which nonce is asked about.
func TestUnsettledOf(t *testing.T) {
	hash := common.Hash{1}.Hex()
	signed := json.RawMessage(`{"from":"0x00000000000000000000000000000000000000a1","nonce":0,"chainId":7}`)
	for _, tc := range []struct {
		name string
		tx   journal.Transaction
		want bool
	}{
		{"pending", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: "pending", Signed: signed}, true},
		{"sending", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: "sending", Signed: signed}, true},
		{"unknown", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: StatusUnknown, Signed: signed}, true},
		{"success", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: "success", Signed: signed}, false},
		{"dropped", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: "dropped", Signed: signed}, false},
		{"refused by the node", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: "failed", Signed: signed}, false},
		{"no signature", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: "pending"}, false},
		{"no nonce", journal.Transaction{Kind: journal.TxChain, ID: hash, Status: "pending", Signed: json.RawMessage(`{"from":"0x00000000000000000000000000000000000000a1"}`)}, false},
		{"not a hash", journal.Transaction{Kind: journal.TxChain, ID: "0x12", Status: "pending", Signed: signed}, false},
		{"a service write", journal.Transaction{Kind: journal.TxUnknown, ID: hash, Status: StatusUnknown, Signed: signed}, false},
	} {
		u, ok := UnsettledOf(tc.tx)
		if ok != tc.want || ok && (u.Nonce != 0 || u.ChainID != 7 || u.Hash != common.Hash{1}) {
			t.Errorf("%s: %+v, %v; want %v", tc.name, u, ok, tc.want)
		}
	}
}

package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// signedApprove signs an approve from f.alice with the given nonce without
// sending it.
func signedApprove(t *testing.T, f *fixture, nonce uint64, amount int64) *types.Transaction {
	t.Helper()
	data, _ := tokenABI.Pack("approve", f.pool, big.NewInt(amount))
	chainID := new(big.Int).SetUint64(f.chain.ChainID())
	tx, err := f.alice.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e12), Gas: 500_000, To: &f.token, Data: data,
	}), chainID)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// nextUpdate reads updates until one satisfies ok.
func nextUpdate(t *testing.T, tr *Tracker, ok func(Status) bool) Status {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case s, open := <-tr.Updates():
			if !open {
				t.Fatalf("updates closed at %+v", tr.Status())
			}
			if ok(s) {
				return s
			}
		case <-timeout:
			t.Fatalf("no such update; last %+v", tr.Status())
		}
	}
}

// inPool returns once the node lists tx as pending, or fails the test
// after 10 s.
func inPool(t *testing.T, f *fixture, tx *types.Transaction) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, pending, err := f.node.TransactionByHash(context.Background(), tx.Hash()); err == nil && pending {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the node did not take %s in 10 s", tx.Hash())
		}
		time.Sleep(5 * time.Millisecond) // a poll interval
	}
}

func TestTrackerConfirmations(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tx := signedApprove(t, f, 0, 1)
	if err := Send(ctx, f.node, tx); err != nil {
		t.Fatal(err)
	}
	tr := Track(ctx, f.node, tx, TrackOptions{Confirmations: 3, Poll: 5 * time.Millisecond})
	if s := nextUpdate(t, tr, func(Status) bool { return true }); s.State != StatePending || s.Hash != tx.Hash() {
		t.Fatalf("first update %+v, want pending", s)
	}
	// The pool takes the transaction in the background: once the node
	// lists it as pending, one block holds it.
	inPool(t, f, tx)
	f.chain.Commit()
	mined := nextUpdate(t, tr, func(s Status) bool { return s.Mined() })
	if mined.State != StateSuccess || mined.Confirmations < 1 || mined.GasUsed == 0 || mined.Block == 0 {
		t.Fatalf("mined %+v", mined)
	}
	// Every further block counts one more, until three.
	for have := mined.Confirmations; have < 3; have++ {
		f.chain.Commit()
		s := nextUpdate(t, tr, func(s Status) bool { return s.Confirmations > have })
		if s.Confirmations != have+1 || s.Block != mined.Block || s.State != StateSuccess {
			t.Fatalf("after one more block: %+v, had %d confirmations", s, have)
		}
	}
	s, err := tr.Wait(ctx)
	if err != nil || s.Confirmations != 3 {
		t.Errorf("Wait = %+v, %v", s, err)
	}
	if _, open := <-tr.Updates(); open {
		// The final status may still be buffered once; then it closes.
		if _, open := <-tr.Updates(); open {
			t.Error("updates not closed after the final status")
		}
	}
}

func TestTrackerDropped(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()

	t.Run("never known to the node", func(t *testing.T) {
		tx := signedApprove(t, f, 0, 1) // signed, never sent
		tr := Track(ctx, f.node, tx, TrackOptions{Poll: 5 * time.Millisecond, DropAfter: 100 * time.Millisecond})
		s, err := tr.Wait(ctx)
		if err != nil || s.State != StateDropped {
			t.Errorf("Wait = %+v, %v; want dropped", s, err)
		}
	})
	t.Run("nonce taken by another transaction", func(t *testing.T) {
		mined, replaced := signedApprove(t, f, 0, 1), signedApprove(t, f, 0, 2)
		if err := Send(ctx, f.node, mined); err != nil {
			t.Fatal(err)
		}
		if s := waitFinal(t, f, mined); s.State != StateSuccess {
			t.Fatalf("first %+v", s)
		}
		tr := Track(ctx, f.node, replaced, TrackOptions{Poll: 5 * time.Millisecond, DropAfter: time.Hour})
		s, err := tr.Wait(ctx)
		if err != nil || s.State != StateDropped {
			t.Errorf("Wait = %+v, %v; want dropped at once", s, err)
		}
	})
}

func TestTrackerStops(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tx := signedApprove(t, f, 0, 1)
	if err := Send(ctx, f.node, tx); err != nil {
		t.Fatal(err)
	}

	t.Run("timeout", func(t *testing.T) {
		tr := Track(ctx, f.node, tx, TrackOptions{Poll: 5 * time.Millisecond, Timeout: 50 * time.Millisecond})
		s, err := tr.Wait(ctx)
		if !errors.Is(err, ErrStoppedWatching) || !errors.Is(err, context.DeadlineExceeded) || s.State != StatePending {
			t.Errorf("Wait = %+v, %v; want still pending and ErrStoppedWatching", s, err)
		}
	})
	t.Run("context canceled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		tr := Track(cctx, f.node, tx, TrackOptions{Poll: 5 * time.Millisecond})
		nextUpdate(t, tr, func(s Status) bool { return s.State == StatePending })
		cancel()
		select {
		case <-tr.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("tracker still running after cancel")
		}
		if _, err := tr.Wait(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Wait: %v, want context.Canceled", err)
		}
	})
}

func TestStatusJSON(t *testing.T) {
	s := Status{State: StateReverted, Block: 12, GasUsed: 21000, Confirmations: 2, RevertReason: "ZeroAmount()"}
	s.Hash[31] = 1
	var got map[string]any
	if err := json.Unmarshal(mustJSON(t, s), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"hash": s.Hash.Hex(), "status": "reverted", "block": 12.0, "gasUsed": 21000.0, "confirmations": 2.0, "revertReason": "ZeroAmount()",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JSON %v\nwant %v", got, want)
	}
}

// fakeNode is a node whose chain a test writes block by block, with reorgs,
// a pool, and revert data for calls. Only what Track uses answers.
type fakeNode struct {
	Node // every other method: not called by Track

	mu       sync.Mutex
	blocks   []*types.Header // canonical, blocks[i].Number == i
	receipts map[common.Hash]*types.Receipt
	pool     map[common.Hash]bool
	nonce    uint64 // the sender's mined nonce
	callErr  error  // what a call answers: a revert
}

func newFakeNode() *fakeNode {
	n := &fakeNode{receipts: map[common.Hash]*types.Receipt{}, pool: map[common.Hash]bool{}}
	n.blocks = []*types.Header{{Number: big.NewInt(0)}}
	return n
}

// mine adds a block, taking tx out of the pool into it when tx is not nil,
// with the receipt status given; replace > 0 first drops that many blocks,
// as a reorg does (their receipts stay served, as some nodes do).
func (n *fakeNode) mine(replace int, tx *types.Transaction, status uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.blocks = n.blocks[:len(n.blocks)-replace]
	parent := n.blocks[len(n.blocks)-1]
	h := &types.Header{ParentHash: parent.Hash(), Number: big.NewInt(int64(len(n.blocks))), Extra: []byte{byte(replace)}}
	n.blocks = append(n.blocks, h)
	if tx != nil {
		delete(n.pool, tx.Hash())
		n.receipts[tx.Hash()] = &types.Receipt{Status: status, TxHash: tx.Hash(), BlockHash: h.Hash(), BlockNumber: h.Number, GasUsed: 21_000}
		n.nonce = tx.Nonce() + 1
	}
}

// forget removes a transaction from the node: its receipt, and from the
// pool, as anvil_dropTransaction or a reverted snapshot do.
func (n *fakeNode) forget(tx *types.Transaction, nonce uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.receipts, tx.Hash())
	delete(n.pool, tx.Hash())
	n.nonce = nonce
}

func (n *fakeNode) TransactionReceipt(_ context.Context, hash common.Hash) (*types.Receipt, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if r := n.receipts[hash]; r != nil {
		return r, nil
	}
	return nil, ethereum.NotFound
}

func (n *fakeNode) TransactionByHash(_ context.Context, hash common.Hash) (*types.Transaction, bool, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.pool[hash] || n.receipts[hash] != nil {
		return nil, n.pool[hash], nil
	}
	return nil, false, ethereum.NotFound
}

func (n *fakeNode) HeaderByNumber(_ context.Context, number *big.Int) (*types.Header, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if number == nil {
		return n.blocks[len(n.blocks)-1], nil
	}
	if !number.IsUint64() || number.Uint64() >= uint64(len(n.blocks)) {
		return nil, ethereum.NotFound
	}
	return n.blocks[number.Uint64()], nil
}

func (n *fakeNode) BlockNumber(context.Context) (uint64, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return uint64(len(n.blocks) - 1), nil
}

func (n *fakeNode) NonceAt(context.Context, common.Address, *big.Int) (uint64, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.nonce, nil
}

// PendingNonceAt counts the pool after the mined nonce, as an honest node
// whose pool holds no gap does.
func (n *fakeNode) PendingNonceAt(context.Context, common.Address) (uint64, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.nonce + uint64(len(n.pool)), nil
}

func (n *fakeNode) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return nil, n.callErr
}

// revertErr is a JSON-RPC error carrying revert data, as nodes send it.
type revertErr struct{ data string }

func (e revertErr) Error() string          { return "execution reverted" }
func (e revertErr) ErrorCode() int         { return 3 }
func (e revertErr) ErrorData() interface{} { return e.data }

// sentTo signs a transaction for the fake node and puts it in its pool.
func sentTo(t *testing.T, n *fakeNode, nonce uint64) *types.Transaction {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	to := common.HexToAddress("0x1234")
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(31337)), &types.DynamicFeeTx{
		ChainID: big.NewInt(31337), Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1), Gas: 50_000, To: &to,
	})
	if err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	n.pool[tx.Hash()] = true
	n.nonce = nonce
	n.mu.Unlock()
	return tx
}

func TestTrackerOnAFakeNode(t *testing.T) {
	ctx := context.Background()
	opts := TrackOptions{Confirmations: 3, Poll: 2 * time.Millisecond, DropAfter: 50 * time.Millisecond}

	t.Run("pending, then mined, then confirmed", func(t *testing.T) {
		n := newFakeNode()
		tx := sentTo(t, n, 0)
		tr := Track(ctx, n, tx, opts)
		nextUpdate(t, tr, func(s Status) bool { return s.State == StatePending })
		n.mine(0, tx, types.ReceiptStatusSuccessful)
		s := nextUpdate(t, tr, func(s Status) bool { return s.Mined() })
		if s.State != StateSuccess || s.Block != 1 || s.Confirmations != 1 || s.Reorged {
			t.Fatalf("mined %+v", s)
		}
		select {
		case <-tr.Done():
			t.Fatal("final at one confirmation of three")
		case <-time.After(20 * time.Millisecond):
		}
		n.mine(0, nil, 0)
		n.mine(0, nil, 0)
		if s, err := tr.Wait(ctx); err != nil || s.State != StateSuccess || s.Confirmations != 3 {
			t.Errorf("Wait = %+v, %v", s, err)
		}
	})

	t.Run("reverted with its reason", func(t *testing.T) {
		n := newFakeNode()
		tx := sentTo(t, n, 0)
		// Error(string) "too early", as Solidity's require encodes it.
		n.callErr = revertErr{"0x08c379a0" +
			"0000000000000000000000000000000000000000000000000000000000000020" +
			"0000000000000000000000000000000000000000000000000000000000000009" +
			"746f6f206561726c790000000000000000000000000000000000000000000000"}
		n.mine(0, tx, types.ReceiptStatusFailed)
		n.mine(0, nil, 0)
		n.mine(0, nil, 0)
		s, err := Track(ctx, n, tx, opts).Wait(ctx)
		if err != nil || s.State != StateReverted || s.RevertReason != "too early" {
			t.Errorf("Wait = %+v, %v; want reverted: too early", s, err)
		}
	})

	t.Run("reorged, then mined again", func(t *testing.T) {
		n := newFakeNode()
		tx := sentTo(t, n, 0)
		n.mine(0, tx, types.ReceiptStatusSuccessful)
		tr := Track(ctx, n, tx, opts)
		nextUpdate(t, tr, func(s Status) bool { return s.Mined() })
		// The block is replaced; the node still serves the old receipt and
		// has the transaction back in its pool.
		n.mu.Lock()
		n.pool[tx.Hash()] = true
		n.mu.Unlock()
		n.mine(1, nil, 0)
		s := nextUpdate(t, tr, func(s Status) bool { return !s.Mined() })
		if s.State != StatePending || !s.Reorged || s.Confirmations != 0 {
			t.Fatalf("after the reorg %+v, want pending and reorged", s)
		}
		n.mine(0, tx, types.ReceiptStatusSuccessful)
		n.mine(0, nil, 0)
		n.mine(0, nil, 0)
		s, err := tr.Wait(ctx)
		if err != nil || s.State != StateSuccess || s.Block != 2 || s.Confirmations != 3 || s.Reorged {
			t.Errorf("Wait = %+v, %v; want mined again in block 2", s, err)
		}
	})

	t.Run("reorged, then dropped", func(t *testing.T) {
		n := newFakeNode()
		tx := sentTo(t, n, 0)
		n.mine(0, tx, types.ReceiptStatusSuccessful)
		tr := Track(ctx, n, tx, opts)
		nextUpdate(t, tr, func(s Status) bool { return s.Mined() })
		n.forget(tx, 0) // a snapshot reverted: the block and the transaction are gone
		n.mu.Lock()
		n.blocks = n.blocks[:1]
		n.mu.Unlock()
		s, err := tr.Wait(ctx)
		if err != nil || s.State != StateDropped || !s.Reorged {
			t.Errorf("Wait = %+v, %v; want dropped after a reorg", s, err)
		}
	})

	t.Run("dropped from the pool", func(t *testing.T) {
		n := newFakeNode()
		tx := sentTo(t, n, 0)
		tr := Track(ctx, n, tx, opts)
		nextUpdate(t, tr, func(s Status) bool { return s.State == StatePending })
		n.forget(tx, 0)
		s, err := tr.Wait(ctx)
		if err != nil || s.State != StateDropped || s.Reorged {
			t.Errorf("Wait = %+v, %v; want dropped", s, err)
		}
	})
}

func TestStatusJSONReorged(t *testing.T) {
	var got map[string]any
	if err := json.Unmarshal(mustJSON(t, Status{State: StatePending, Reorged: true}), &got); err != nil {
		t.Fatal(err)
	}
	if got["reorged"] != true || got["status"] != "pending" || len(got) != 7 {
		t.Errorf("JSON %v, want the six fields and reorged: true", got)
	}
}

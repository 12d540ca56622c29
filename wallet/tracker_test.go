package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
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
	// The pool takes the transaction in the background: seal blocks until
	// one holds it.
	for tr.Status().State == StatePending {
		f.chain.Commit()
		time.Sleep(10 * time.Millisecond)
	}
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

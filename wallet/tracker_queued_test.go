package wallet

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// nonceLiar adds 2 to the account's next nonce, as the node of issue 30
// (item 5) did: what is signed on that nonce waits in the node's queue.
type nonceLiar struct{ Node }

func (n nonceLiar) PendingNonceAt(ctx context.Context, a common.Address) (uint64, error) {
	next, err := n.Node.PendingNonceAt(ctx, a)
	return next + 2, err
}

// TestTrackerQueued: a transaction the node holds in its queue, behind a
// nonce gap, is said to be queued behind the nonce that must be mined
// first, whether the node tells its next nonce honestly or repeats the lie
// that made the gap; once the gap is filled it is mined.
func TestTrackerQueued(t *testing.T) {
	for _, tc := range []struct {
		name string
		node func(Node) Node
	}{
		{"an honest node", func(n Node) Node { return n }},
		{"the node that made the gap", func(n Node) Node { return nonceLiar{n} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			node := tc.node(f.node)
			next, err := node.PendingNonceAt(ctx, f.alice.Address())
			if err != nil {
				t.Fatal(err)
			}
			gapped := signedApprove(t, f, max(next, 2), 1) // nonces 0 and 1 never sent
			if err := Send(ctx, node, gapped); err != nil {
				t.Fatal(err)
			}
			tr := Track(ctx, node, gapped, TrackOptions{Poll: 5 * time.Millisecond, DropAfter: time.Hour})
			s := nextUpdate(t, tr, func(s Status) bool { return s.State == StateQueued })
			if s.Behind != 0 || s.QueuedNote() != "queued behind nonce 0: another transaction from this account must be mined first; the node holds this one until then" {
				t.Errorf("queued %+v: %s", s, s.QueuedNote())
			}
			var got map[string]any
			if err := json.Unmarshal(mustJSON(t, s), &got); err != nil || got["status"] != "queued" || got["queuedBehind"] != 0.0 {
				t.Errorf("JSON %v, %v; want status queued, queuedBehind 0", got, err)
			}
			// A block does not change it: the node cannot mine it.
			f.chain.Commit()
			if s := tr.Status(); s.State != StateQueued && s.State != StatePending {
				t.Fatalf("after a block: %+v", s)
			}
			for nonce := range uint64(2) {
				if err := Send(ctx, f.node, signedApprove(t, f, nonce, 1)); err != nil {
					t.Fatal(err)
				}
			}
			if s := waitFinal(t, f, gapped); s.State != StateSuccess {
				t.Errorf("with the gap filled: %+v, want mined", s)
			}
		})
	}
}

// laggingNode tells the mined nonce as the next one: a node whose pool
// has not counted what it just took.
type laggingNode struct{ Node }

func (n laggingNode) PendingNonceAt(ctx context.Context, a common.Address) (uint64, error) {
	return n.Node.NonceAt(ctx, a, nil)
}

// TestTrackerBatchIsNoGap: the second transaction of a batch waits for the
// first, on the nonce below its own (TrackOptions.Ahead); even on a node
// whose next nonce lags, it is pending, never queued.
func TestTrackerBatchIsNoGap(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	node := laggingNode{f.node}
	first, second := signedApprove(t, f, 0, 1), signedApprove(t, f, 1, 2)
	for _, tx := range []*types.Transaction{first, second} {
		if err := Send(ctx, node, tx); err != nil {
			t.Fatal(err)
		}
	}
	inPool(t, f, second)
	tr := Track(ctx, node, second, TrackOptions{Poll: 5 * time.Millisecond, Ahead: 1})
	polls := 0
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case s, open := <-tr.Updates():
			if s.State == StateQueued {
				t.Fatalf("the batch's second transaction said queued: %+v", s)
			}
			if !open || s.Mined() {
				return
			}
		case <-tick.C:
			// A few looks at the pool before the block that mines both.
			if polls++; polls > 3 {
				f.chain.Commit()
			}
		}
	}
}

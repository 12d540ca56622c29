package history

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// busyNode answers its log queries with the statuses of busy, in turn,
// then as the node under it.
type busyNode struct {
	Node
	mu   sync.Mutex
	busy []int
}

func (n *busyNode) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.busy) > 0 {
		code := n.busy[0]
		n.busy = n.busy[1:]
		return nil, rpc.HTTPError{StatusCode: code, Status: strconv.Itoa(code) + " busy"}
	}
	return n.Node.FilterLogs(ctx, q)
}

// TestBusyNodeAskedAgain: a node that answers 429 or a 5xx is asked the
// same range again after pauses that double (given by the test's sleeper:
// no wall-clock wait), and the history is whole; one busy past the last
// try ends the scan with its status.
func TestBusyNodeAskedAgain(t *testing.T) {
	f := newFixture(t)
	want := spreadClaims(t, f)
	var pauses []time.Duration
	sleep := func(_ context.Context, d time.Duration) error { pauses = append(pauses, d); return nil }
	node := &busyNode{Node: f.node, busy: []int{429, 429, 503, 502}}
	h, err := New(node, Options{Sleep: sleep}).Allocation(context.Background(), f.vester, f.allocs[aliceFirst].Allocation)
	if err != nil {
		t.Fatal(err)
	}
	sameTxs(t, h.Events, want)
	if !slices.Equal(pauses, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}) {
		t.Errorf("pauses %v", pauses)
	}

	pauses = nil
	node = &busyNode{Node: f.node, busy: slices.Repeat([]int{429}, retries+1)}
	_, err = New(node, Options{Sleep: sleep}).Allocation(context.Background(), f.vester, f.allocs[aliceFirst].Allocation)
	if err == nil || !strings.Contains(err.Error(), "429") || len(pauses) != retries {
		t.Fatalf("busy past every try: %v after %d pauses", err, len(pauses))
	}
}

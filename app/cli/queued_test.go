package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/wallet"
)

// nonceGapNode adds 2 to the account's next nonce, as the node of issue 30
// (item 5) did: what allot signs on it waits in the node's queue. It
// reads storage as the node below it does, as signing does of any
// contract whose code can DELEGATECALL elsewhere (a proxy's slots).
type nonceGapNode struct{ storageNode }

type storageNode interface {
	wallet.Node
	wallet.StorageReader
}

func (n nonceGapNode) PendingNonceAt(ctx context.Context, a common.Address) (uint64, error) {
	next, err := n.storageNode.PendingNonceAt(ctx, a)
	return next + 2, err
}

// TestQueuedClaimIsSaidAndItsOutcomeLearned: a claim the node queues
// behind a nonce gap is said to be queued, not pending, and not waited
// for; once the gap is filled and it is mined, `allot transactions` asks
// the chain and the journal learns its outcome, which it never did.
func TestQueuedClaimIsSaidAndItsOutcomeLearned(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	honest := f.sess.Chain
	f.sess.Chain = nonceGapNode{honest.(storageNode)}
	r := f.run(t, "claim", testAllocation, "--sign", "--account", f.user.Hex(), "--send", "--yes", "--wait")
	queued := "is queued behind nonce 0: another transaction from this account must be mined first"
	if r.code != 1 || !strings.Contains(r.stderr, queued) || !strings.Contains(r.stdout, "queued (behind nonce 0)") {
		t.Fatalf("exit %d, want the claim said queued behind nonce 0:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	claims := journaltest.Of(journaltest.Entries(t, f.sess.StateDir), journal.KindTransaction, "claim")
	hash := common.HexToHash(claims[0].Ref)

	r = f.run(t, "transactions", "-o", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"status": "queued",`) || !strings.Contains(r.stdout, `"queuedBehind": 0`) {
		t.Errorf("transactions while queued: exit %d, want the claim queued:\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	// Another transaction fills the gap: a stake takes nonces 0 and 1,
	// and the claim on nonce 2 is mined after them.
	f.sess.Chain = honest
	if r := f.run(t, "stake", "--pool", testPoolID, "--amount", "10", "--account", f.user.Hex(), "--send", "--yes", "--wait"); r.code != 0 {
		t.Fatalf("stake: exit %d\n%s", r.code, r.stderr)
	}
	awaitReceipt(t, honest, hash)
	r = f.run(t, "transactions", "--kind", "claim")
	if r.code != 0 || !strings.Contains(r.stdout, "success, block") {
		t.Errorf("transactions once mined: exit %d, want the claim mined:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var states []string
	for _, e := range journaltest.Of(journaltest.Entries(t, f.sess.StateDir), journal.KindTransaction, "claim") {
		if e.Ref == hash.Hex() {
			states = append(states, e.Status)
		}
	}
	if strings.Join(states, ",") != "sending,pending,success" {
		t.Errorf("journaled states %v, want sending, pending, then the success learned", states)
	}
	// Learned once: the next look has nothing to ask.
	f.run(t, "transactions")
	if n := len(journaltest.Of(journaltest.Entries(t, f.sess.StateDir), journal.KindTransaction, "claim")); n != 3 {
		t.Errorf("%d claim entries after another look, want 3", n)
	}
}

// awaitReceipt returns once the chain has mined hash; the fixture makes a
// block every 100 ms.
func awaitReceipt(t *testing.T, node wallet.Node, hash common.Hash) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if _, err := node.TransactionReceipt(context.Background(), hash); err == nil {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("%s not mined in 10 s", hash.Hex())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

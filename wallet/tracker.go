package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// State is where a sent transaction stands.
type State string

// The states of a tracked transaction.
const (
	StatePending  State = "pending"
	StateSuccess  State = "success"
	StateReverted State = "reverted"
	// StateDropped: the node no longer knows the transaction and it will
	// not be mined: another transaction took its nonce, or it stayed
	// unknown for TrackOptions.DropAfter.
	StateDropped State = "dropped"
	// StateQueued: the node took the transaction but holds it in its
	// queue, not to be mined: its nonce is above the account's next one
	// (a nonce gap), and a transaction of the account with the nonce in
	// Status.Behind must be mined first. It is not final: filled, the gap
	// lets it be mined.
	StateQueued State = "queued"
)

// Status is a tracked transaction's state at one moment.
type Status struct {
	Hash  common.Hash
	State State
	// Block and GasUsed are set once mined.
	Block   uint64
	GasUsed uint64
	// Confirmations counts the block that took the transaction and every
	// block after it: 1 right after it is mined.
	Confirmations uint64
	// RevertReason is set for a reverted transaction when the reason could
	// be found: a decoded custom error, Name(arg: value, ...), or the
	// reason string of Error(string).
	RevertReason string
	// Reorged is set while a transaction that was mined is not any more:
	// its block left the canonical chain (a reorg), and it is pending
	// again or, gone from the node too, dropped. Mined again, it clears.
	Reorged bool
	// Behind is, for a queued transaction, the account's next nonce as
	// mined: the transaction with this nonce must be mined first.
	Behind uint64
}

// QueuedNote says what a queued transaction waits for, in words.
func (s Status) QueuedNote() string {
	return fmt.Sprintf("queued behind nonce %d: another transaction from this account must be mined first; the node holds this one until then", s.Behind)
}

// Reorg is how a reorged transaction is described to the user.
const Reorg = "reorged: not mined any more"

// Mined reports whether the transaction is in a block.
func (s Status) Mined() bool { return s.State == StateSuccess || s.State == StateReverted }

// MarshalJSON writes
// {"hash": HEX, "status": "pending"|"queued"|"success"|"reverted"|"dropped", "block": N,
// "gasUsed": N, "confirmations": N, "revertReason": STRING}; numbers are 0
// and the reason "" where they do not apply. A reorged transaction adds
// "reorged": true, and only then; a queued one adds "queuedBehind": N, the
// nonce that must be mined first.
func (s Status) MarshalJSON() ([]byte, error) {
	var behind *uint64
	if s.State == StateQueued {
		behind = &s.Behind
	}
	return json.Marshal(struct {
		Hash          common.Hash `json:"hash"`
		Status        State       `json:"status"`
		Block         uint64      `json:"block"`
		GasUsed       uint64      `json:"gasUsed"`
		Confirmations uint64      `json:"confirmations"`
		RevertReason  string      `json:"revertReason"`
		Reorged       bool        `json:"reorged,omitempty"`
		QueuedBehind  *uint64     `json:"queuedBehind,omitempty"`
	}{s.Hash, s.State, s.Block, s.GasUsed, s.Confirmations, s.RevertReason, s.Reorged, behind})
}

// TrackOptions configure Track. Zero values take the defaults.
type TrackOptions struct {
	// Confirmations is how many the tracker waits for once the transaction
	// is mined; default 1.
	Confirmations uint64
	// Poll is the time between two looks at the node; default 1s, at least
	// 10ms.
	Poll time.Duration
	// Timeout bounds the whole tracking; default 10 minutes.
	Timeout time.Duration
	// DropAfter is how long the node may not know the transaction before it
	// counts as dropped; default 1 minute.
	DropAfter time.Duration
	// Ahead counts the transactions of the same batch signed before this
	// one, on the nonces just below its own: waiting for them is no gap.
	Ahead uint64
}

// Defaults of TrackOptions.
const (
	DefaultPoll      = time.Second
	DefaultTimeout   = 10 * time.Minute
	DefaultDropAfter = time.Minute
	minPoll          = 10 * time.Millisecond
)

// ErrStoppedWatching is returned by Wait when the tracker stopped before the
// transaction was final: the timeout passed or the context ended. The
// transaction may still be mined.
var ErrStoppedWatching = errors.New("stopped watching the transaction")

// Tracker follows one sent transaction until it is mined with enough
// confirmations, dropped, or the tracking times out. It never runs past
// its timeout.
type Tracker struct {
	node    Node
	tx      *types.Transaction
	from    common.Address
	opts    TrackOptions
	updates chan Status
	done    chan struct{}
	// anchor is the canonical block's hash at the receipt's height when
	// that receipt was first seen; only the tracking goroutine uses it.
	anchor struct{ receiptBlock, canonical common.Hash }

	mu   sync.Mutex
	last Status
	err  error
}

// Track starts following tx, a signed transaction, until ctx ends or the
// transaction is final. Read its progress from Updates, or Wait for the
// end.
func Track(ctx context.Context, node Node, tx *types.Transaction, opts TrackOptions) *Tracker {
	if opts.Confirmations == 0 {
		opts.Confirmations = 1
	}
	if opts.Poll == 0 {
		opts.Poll = DefaultPoll
	}
	opts.Poll = max(opts.Poll, minPoll)
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.DropAfter <= 0 {
		opts.DropAfter = DefaultDropAfter
	}
	t := &Tracker{
		node:    node,
		tx:      tx,
		opts:    opts,
		updates: make(chan Status, 1),
		done:    make(chan struct{}),
		last:    Status{Hash: tx.Hash(), State: StatePending},
	}
	t.updates <- t.last
	from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
	if err != nil {
		t.finish(fmt.Errorf("track %s: sender: %w", tx.Hash().Hex(), err))
		return t
	}
	t.from = from
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	go func() {
		defer cancel()
		t.finish(t.run(ctx))
	}()
	return t
}

// Updates delivers the status each time it changes, starting with pending.
// It holds only the latest: a reader that falls behind skips to it. It is
// closed when the tracker stops, after the final status.
func (t *Tracker) Updates() <-chan Status { return t.updates }

// Done is closed when the tracker stops.
func (t *Tracker) Done() <-chan struct{} { return t.done }

// Status returns the latest status.
func (t *Tracker) Status() Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// Wait blocks until the tracker stops or ctx ends, and returns the latest
// status. The error wraps ErrStoppedWatching when tracking stopped before
// the transaction was final.
func (t *Tracker) Wait(ctx context.Context) (Status, error) {
	select {
	case <-t.done:
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.last, t.err
	case <-ctx.Done():
		return t.Status(), fmt.Errorf("%w %s: %w", ErrStoppedWatching, t.tx.Hash().Hex(), ctx.Err())
	}
}

func (t *Tracker) publish(s Status) {
	t.mu.Lock()
	changed := s != t.last
	t.last = s
	t.mu.Unlock()
	if !changed {
		return
	}
	// Only this goroutine sends: drop an unread status for the newer one.
	select {
	case <-t.updates:
	default:
	}
	t.updates <- s
}

func (t *Tracker) finish(err error) {
	t.mu.Lock()
	t.err = err
	last := t.last
	t.mu.Unlock()
	select {
	case <-t.updates:
	default:
	}
	t.updates <- last
	close(t.updates)
	close(t.done)
}

// run polls the node until the transaction is final or ctx ends.
func (t *Tracker) run(ctx context.Context) error {
	lastSeen := time.Now()
	ticker := time.NewTicker(t.opts.Poll)
	defer ticker.Stop()
	for {
		s, final, seen := t.poll(ctx, lastSeen)
		if seen {
			lastSeen = time.Now()
		}
		t.publish(s)
		if final {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w %s: %w", ErrStoppedWatching, t.tx.Hash().Hex(), ctx.Err())
		case <-ticker.C:
		}
	}
}

// poll looks at the node once. seen reports whether the node knows the
// transaction; a failed look changes nothing, the timeout bounds them.
func (t *Tracker) poll(ctx context.Context, lastSeen time.Time) (s Status, final, seen bool) {
	prev := t.Status()
	hash := t.tx.Hash()
	receipt, err := t.receipt(ctx)
	if err == nil {
		return t.mined(ctx, prev, receipt)
	}
	if !errors.Is(err, ethereum.NotFound) {
		return prev, false, false
	}
	// Not in a block: waiting, or gone; after a reorg, not any more.
	s = Status{Hash: hash, State: StatePending, Reorged: prev.Mined() || prev.Reorged}
	_, _, err = t.node.TransactionByHash(ctx, hash)
	switch {
	case err == nil:
		if behind, ok := t.queued(ctx); ok {
			s.State, s.Behind = StateQueued, behind
		}
		return s, false, true
	case !errors.Is(err, ethereum.NotFound):
		return s, false, false
	}
	nonce, err := t.node.NonceAt(ctx, t.from, nil)
	if err == nil && nonce > t.tx.Nonce() {
		// Another transaction took the nonce, unless this one was mined
		// between the two looks.
		if receipt, err := t.receipt(ctx); err == nil {
			return t.mined(ctx, prev, receipt)
		}
		s.State = StateDropped
		return s, true, false
	}
	if time.Since(lastSeen) >= t.opts.DropAfter {
		s.State = StateDropped
		return s, true, false
	}
	return s, false, false
}

// queued reports whether the node holds the transaction in its queue, and
// the nonce that must be mined first: the account's mined nonce is below
// the batch's first, and the node's next nonce for the account does not
// pass this transaction (an honest node counts only what it can mine; a
// node that lied about it to make the gap answers the same lie).
func (t *Tracker) queued(ctx context.Context) (uint64, bool) {
	mined, err := t.node.NonceAt(ctx, t.from, nil)
	if err != nil || mined >= t.tx.Nonce()-min(t.opts.Ahead, t.tx.Nonce()) {
		return 0, false
	}
	next, err := t.node.PendingNonceAt(ctx, t.from)
	if err != nil || next > t.tx.Nonce() {
		return 0, false
	}
	return mined, true
}

// receipt returns the transaction's receipt while its block is on the
// canonical chain, else ethereum.NotFound: a node may still serve the
// receipt of a block a reorg replaced. The canonical block at the
// receipt's height must hash to the receipt's block hash; on a chain whose
// headers go-ethereum hashes differently, it must stay the block it was
// when the receipt was first seen.
func (t *Tracker) receipt(ctx context.Context) (*types.Receipt, error) {
	r, err := t.node.TransactionReceipt(ctx, t.tx.Hash())
	if err != nil {
		return nil, err
	}
	if r.BlockNumber == nil {
		return nil, fmt.Errorf("receipt of %s names no block", t.tx.Hash().Hex())
	}
	head, err := t.node.HeaderByNumber(ctx, r.BlockNumber)
	if err != nil {
		// NotFound: the chain is shorter than the receipt's block now.
		return nil, err
	}
	canonical := head.Hash()
	if t.anchor.receiptBlock != r.BlockHash {
		t.anchor.receiptBlock, t.anchor.canonical = r.BlockHash, canonical
	}
	if canonical != r.BlockHash && canonical != t.anchor.canonical {
		return nil, ethereum.NotFound
	}
	return r, nil
}

func (t *Tracker) mined(ctx context.Context, prev Status, r *types.Receipt) (Status, bool, bool) {
	s := Status{Hash: t.tx.Hash(), State: StateSuccess, GasUsed: r.GasUsed}
	if r.BlockNumber != nil {
		s.Block = r.BlockNumber.Uint64()
	}
	if r.Status != types.ReceiptStatusSuccessful {
		s.State = StateReverted
		if prev.Mined() && prev.Block == s.Block {
			s.RevertReason = prev.RevertReason
		} else {
			s.RevertReason = t.revertReason(ctx, r)
		}
	}
	head, err := t.node.BlockNumber(ctx)
	if err == nil && head >= s.Block {
		s.Confirmations = head - s.Block + 1
	} else {
		s.Confirmations = max(prev.Confirmations, 1)
	}
	return s, s.Confirmations >= t.opts.Confirmations, true
}

// revertReason runs the transaction's call again on the state of the block
// that took it (which includes the transactions before it) to learn why it
// reverted.
func (t *Tracker) revertReason(ctx context.Context, r *types.Receipt) string {
	return minedRevertReason(ctx, t.node, t.from, t.tx, r)
}

// minedRevertReason is why tx, sent by from and mined with receipt r,
// reverted, as far as the node tells; "" when it does not.
func minedRevertReason(ctx context.Context, node Node, from common.Address, tx *types.Transaction, r *types.Receipt) string {
	msg := ethereum.CallMsg{From: from, To: tx.To(), Gas: tx.Gas(), Value: tx.Value(), Data: tx.Data()}
	_, err := node.CallContract(ctx, msg, r.BlockNumber)
	if err != nil {
		if reason, ok := revertReason(err); ok {
			return reason
		}
	}
	if r.GasUsed >= tx.Gas() {
		return fmt.Sprintf("out of gas: used all %d", tx.Gas())
	}
	return ""
}

package chain

import (
	"context"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Commit seals a block holding the pending transactions (possibly none) and
// returns its hash. On an external node, which mines by itself, it does
// nothing and returns the zero hash.
func (c *Chain) Commit() common.Hash {
	if c.External() {
		return common.Hash{}
	}
	c.sealMu.Lock()
	defer c.sealMu.Unlock()
	return c.beacon.Commit()
}

// AdvanceTime seals an empty block d after the head block's time (whole
// seconds). Transactions that wait are first mined in a block of their own.
func (c *Chain) AdvanceTime(d time.Duration) error {
	if d < time.Second {
		return fmt.Errorf("advance time by %s: less than a second", d)
	}
	if c.External() {
		return fmt.Errorf("advance time: %w", ErrExternal)
	}
	c.sealMu.Lock()
	defer c.sealMu.Unlock()
	// The pool takes in sent transactions and mined blocks in the
	// background; AdjustTime must see what really waits.
	if err := c.txPool.Sync(); err != nil {
		return fmt.Errorf("advance time by %s: %w", d, err)
	}
	if err := c.beacon.AdjustTime(d); err == nil {
		return nil
	}
	// AdjustTime's only refusal is a pool with transactions: mine them.
	c.beacon.Commit()
	if err := c.txPool.Sync(); err != nil {
		return fmt.Errorf("advance time by %s: %w", d, err)
	}
	if err := c.beacon.AdjustTime(d); err != nil {
		return fmt.Errorf("advance time by %s: %w", d, err)
	}
	return nil
}

// Now returns the head block's time, the clock to compute unlocks with (see
// the package documentation).
func (c *Chain) Now(ctx context.Context) (time.Time, error) {
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return time.Time{}, fmt.Errorf("chain time: %w", err)
	}
	return time.Unix(int64(head.Time), 0).UTC(), nil
}

package chain

import (
	"errors"
	"fmt"
	"time"
)

// miner is a running mining loop.
type miner struct {
	stop chan struct{}
	done chan struct{}
}

// StartMining seals a block every interval until StopMining or Close,
// whether or not transactions wait: on a real chain blocks keep coming, so a
// mined transaction's confirmations keep counting up, and block times keep
// pace with the wall clock. An empty block costs well under a millisecond.
func (c *Chain) StartMining(interval time.Duration) error {
	if interval < time.Second {
		// Block times have a resolution of one second: faster blocks would
		// run chain time ahead of the wall clock.
		return fmt.Errorf("start mining every %s: less than a second", interval)
	}
	if c.External() {
		return fmt.Errorf("start mining: %w", ErrExternal)
	}
	c.miningMu.Lock()
	defer c.miningMu.Unlock()
	if c.mining != nil {
		return errors.New("start mining: already mining")
	}
	m := &miner{stop: make(chan struct{}), done: make(chan struct{})}
	c.mining = m
	go func() {
		defer close(m.done)
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-ticker.C:
				c.Commit()
			}
		}
	}()
	return nil
}

// StopMining stops the mining loop, if one runs, and waits until it has.
func (c *Chain) StopMining() {
	c.miningMu.Lock()
	defer c.miningMu.Unlock()
	if c.mining == nil {
		return
	}
	close(c.mining.stop)
	<-c.mining.done
	c.mining = nil
}

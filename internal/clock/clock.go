// Package clock is allot's one source of time: what a countdown, a
// refresh or a watch reads as now, and what it waits on. The program runs
// on System; tests run on a Fake they move forward, so that nothing waits
// on the wall clock.
package clock

import (
	"context"
	"sort"
	"sync"
	"time"
)

// Clock tells the time and waits for it.
type Clock interface {
	Now() time.Time
	// After sends the time on the channel it returns once d has passed.
	After(d time.Duration) <-chan time.Time
}

// System is the wall clock.
var System Clock = system{}

type system struct{}

func (system) Now() time.Time                         { return time.Now() }
func (system) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Sleep waits d on c, or until ctx ends: it reports whether d passed.
func Sleep(ctx context.Context, c Clock, d time.Duration) bool {
	select {
	case <-c.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

// Fake is a clock that moves only when told: Advance and Set fire every
// wait whose time has come. A test waits for the code under test to be
// waiting (BlockUntil) before it moves the clock, so nothing is missed.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	changed chan struct{} // closed and replaced when waiters change
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// NewFake is a fake clock reading now.
func NewFake(now time.Time) *Fake { return &Fake{now: now, changed: make(chan struct{})} }

// Now is the fake's time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// After fires once the fake has been moved d forward; at once when d is
// not positive.
func (f *Fake) After(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- f.now
		return ch
	}
	f.waiters = append(f.waiters, waiter{at: f.now.Add(d), ch: ch})
	f.signal()
	return ch
}

// Advance moves the fake d forward.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set(f.now.Add(d))
}

// Set moves the fake to t (never backwards: an earlier t is ignored).
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t.After(f.now) {
		f.set(t)
	}
}

func (f *Fake) set(t time.Time) {
	f.now = t
	sort.SliceStable(f.waiters, func(i, j int) bool { return f.waiters[i].at.Before(f.waiters[j].at) })
	kept := f.waiters[:0]
	for _, w := range f.waiters {
		if w.at.After(t) {
			kept = append(kept, w)
			continue
		}
		w.ch <- t
	}
	f.waiters = kept
	f.signal()
}

func (f *Fake) signal() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// Waiters is how many waits have not fired yet.
func (f *Fake) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// BlockUntil returns once at least n waits are pending, or ctx's error.
func (f *Fake) BlockUntil(ctx context.Context, n int) error {
	for {
		f.mu.Lock()
		pending, changed := len(f.waiters), f.changed
		f.mu.Unlock()
		if pending >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"time"

	"allot/core/session"
	"allot/core/watch"
	"allot/internal/clock"
	"allot/internal/sanitize"
	"allot/wallet"
)

// Watch's pace: a poll a minute unless told, and after errors a wait that
// doubles up to maxBackoff.
const (
	defaultWatchInterval = time.Minute
	maxBackoff           = 10 * time.Minute
)

var watchCommand = command{
	name:    "watch",
	args:    "[ALLOCATION_ID...] [--once] [--interval D] [--threshold X]",
	summary: "print a JSON line for each change of the allocations given or followed; --once: exit 0 nothing to claim, 10 something to claim, 1 an error (docs/live.md)",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		once := fs.Bool("once", false, "look once, print what changed since the last --once (the first time, what is found), and exit: 0 nothing to claim, 10 something to claim above --threshold, 1 an allocation could not be checked")
		interval := fs.Duration("interval", defaultWatchInterval, "look again every `D` (at least 1s); after errors the wait doubles, up to 10m")
		threshold := fs.String("threshold", "0", "say claimable only when more than `X` tokens can be claimed")
		return func(ctx context.Context, args []string) error {
			limit, err := wallet.ParseUnits(*threshold)
			if err != nil {
				return usagef("--threshold: %v", err)
			}
			if *interval < time.Second {
				return usagef("--interval %s: at least 1s", *interval)
			}
			s, on, err := e.openAllocations(ctx, args, "watch")
			if err != nil {
				return err
			}
			w := &watcher{e: e, check: s.CheckAllocation, ids: on.ids, follows: on.follows, threshold: limit, seen: map[string]*watch.Snapshot{}, out: json.NewEncoder(e.Stdout)}
			if *once {
				d := s.Deployment()
				return w.once(ctx, s.StateDir, fmt.Sprintf("%s|%d|", strings.TrimRight(d.BaseURL, "/"), d.ChainID))
			}
			return w.run(ctx, *interval)
		}
	},
}

// watcher looks at allocations and prints what changed.
type watcher struct {
	e     *env
	check func(context.Context, string) (*wallet.Verification, error)
	ids   []string
	// follows, when the ids are the followed ones, reads them again at
	// each look of a running watch: one followed or unfollowed meanwhile
	// (in a dashboard, by another allot) is watched, or no longer, from
	// the next look on. nil for ids given.
	follows   *session.Follows
	followErr string // the last failure to read them, said once
	threshold *big.Int
	seen      map[string]*watch.Snapshot // the last look at each id
	out       *json.Encoder
}

// look checks every allocation once and prints the events since the last
// look. It reports whether any can be claimed above the threshold, and
// the first error (each is said on stderr).
func (w *watcher) look(ctx context.Context) (claimable bool, first error) {
	for _, id := range w.ids {
		v, err := w.check(ctx, id)
		if err == nil && v.Outcome() == wallet.Fail {
			err = fmt.Errorf("its proof fails a check: %s", strings.Join(v.Failures(), "; "))
		}
		if err != nil {
			if ctx.Err() != nil {
				return claimable, ctx.Err()
			}
			if first == nil {
				first = fmt.Errorf("allocation %s: %w", id, err)
			}
			continue
		}
		cur := watch.Of(v)
		for _, ev := range watch.Changes(id, w.seen[id], cur, w.threshold) {
			if err := w.out.Encode(ev); err != nil {
				return claimable, writeError{err}
			}
		}
		w.seen[id] = &cur
		claimable = claimable || cur.Above(w.threshold)
	}
	return claimable, first
}

// once looks once and prints what changed since the last --once on this
// deployment (kept in the state directory dir under the keys prefix+id),
// or, at the first, what it finds. Exit status 10 when something can be
// claimed, an error (1) when an allocation could not be checked.
func (w *watcher) once(ctx context.Context, dir, prefix string) error {
	var looks watch.Looks
	if dir != "" {
		var err error
		if looks, err = watch.ReadLooks(dir); err != nil {
			fmt.Fprintf(w.e.Stderr, "allot: warning: %s\n", sanitize.Line(err.Error()))
		}
		for _, id := range w.ids {
			if last, ok := looks[prefix+id]; ok {
				w.seen[id] = &last
			}
		}
	}
	claimable, err := w.look(ctx)
	if dir != "" {
		for id, s := range w.seen {
			looks[prefix+id] = *s
		}
		werr := os.MkdirAll(dir, 0o700)
		if werr == nil {
			werr = watch.WriteLooks(dir, looks)
		}
		if werr != nil {
			fmt.Fprintf(w.e.Stderr, "allot: warning: %s: the next --once prints what it finds again\n", sanitize.Line(werr.Error()))
		}
	}
	switch {
	case err != nil:
		return err
	case claimable:
		return exitStatus{code: ExitClaimable}
	}
	return nil
}

// run looks every interval until ctx ends (ctrl+c). After a look that
// failed it says so on stderr and waits twice as long each time, up to
// maxBackoff; the first look that succeeds again says so and goes back
// to the interval.
func (w *watcher) run(ctx context.Context, interval time.Duration) error {
	c := w.e.clock
	if c == nil {
		c = clock.System
	}
	failures := 0
	for {
		w.refollow()
		_, err := w.look(ctx)
		if ctx.Err() != nil {
			return nil
		}
		wait := interval
		switch {
		case errors.As(err, new(writeError)):
			return err
		case err != nil:
			failures++
			wait = backoff(interval, failures)
			fmt.Fprintf(w.e.Stderr, "allot: watch: cannot check: %s; trying again in %s\n", sanitize.Line(err.Error()), wait)
		case failures > 0:
			failures = 0
			fmt.Fprintln(w.e.Stderr, "allot: watch: checking again: the service and the chain answer")
		}
		if !clock.Sleep(ctx, c, wait) {
			return nil
		}
	}
}

// refollow reads the followed allocations again, when the watch is of
// them. A read that fails keeps the last list, and says why once.
func (w *watcher) refollow() {
	if w.follows == nil {
		return
	}
	ids, err := w.follows.IDs()
	if err != nil {
		if msg := sanitize.Line(err.Error()); msg != w.followErr {
			w.followErr = msg
			fmt.Fprintf(w.e.Stderr, "allot: watch: the follows could not be read again: %s; watching the %d read before\n", msg, len(w.ids))
		}
		return
	}
	w.followErr = ""
	for id := range w.seen {
		if !slices.Contains(ids, id) {
			delete(w.seen, id) // followed again later, it is watched anew
		}
	}
	w.ids = ids
}

// writeError is a failure to write the events: nobody reads them any
// more (a closed pipe), so the watch ends rather than backing off.
type writeError struct{ err error }

func (w writeError) Error() string { return "write: " + w.err.Error() }
func (w writeError) Unwrap() error { return w.err }

// backoff is the wait after n failed looks in a row: interval doubled n
// times, at most maxBackoff (or interval, when that is longer).
func backoff(interval time.Duration, n int) time.Duration {
	wait := interval
	for range n {
		if wait >= maxBackoff {
			break
		}
		wait *= 2
	}
	return max(min(wait, maxBackoff), interval)
}

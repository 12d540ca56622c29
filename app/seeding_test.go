package app

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/views/widget"
)

// TestSeedingIsSaid: while the embedded sandbox still seeds in the
// background, a screen waiting for it says so with a spinner, not an
// error; a seed that failed is said as an error.
func TestSeedingIsSaid(t *testing.T) {
	t.Parallel()
	// The latency keeps the first load waiting; the gate holds the seed.
	// Nothing is timed: the test waits for what is drawn.
	s, err := embedded.Sandbox(sandbox.Options{Faults: sandbox.Faults{Latency: 3 * time.Second}}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	gate := make(chan error, 1)
	s.Seeded = func(ctx context.Context) error {
		select {
		case err := <-gate:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, m: m, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	f.wait("the sandbox is still seeding…")
	gate <- errors.New("sandbox chain: deploy: out of gas")
	f.wait("the embedded sandbox could not finish seeding").wait("out of gas")
	f.quit()
}

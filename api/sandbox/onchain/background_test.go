package onchain

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"allot/api/sandbox"
)

// TestBackgroundStart starts the sandbox with its seed and deployment in
// the background: requests sent at once wait for them, and the contracts
// they list are byte for byte those of a start that seeds all first.
func TestBackgroundStart(t *testing.T) {
	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	sb, err := Start(context.Background(), Options{
		Sandbox:      sandbox.Options{Clock: func() time.Time { return start }, KeystoreDir: t.TempDir()},
		MineInterval: -1,
		Background:   true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if got := contractsDigest(t, sb); got != deployedDigest {
		t.Errorf("the contracts, seeded in the background, hash to %s, want %s", got, deployedDigest)
	}
	if err := sb.Seeded(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(sb.Deployed()) != 2+len(sb.Server.Fixtures().ContractIDs) {
		t.Errorf("deployed %d contracts", len(sb.Deployed()))
	}
}

// sandboxGoroutines returns the stacks of the goroutines running this
// module's sandbox code, other than tests.
func sandboxGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		s := string(g)
		if strings.Contains(s, "allot/api/sandbox") && !strings.Contains(s, "testing.tRunner") {
			out = append(out, s)
		}
	}
	return out
}

// TestCloseStopsTheBackgroundSeed closes a sandbox while it still seeds:
// Close returns once the background work has stopped, none of it is left
// running, and what waited for the seed is told it will not come.
func TestCloseStopsTheBackgroundSeed(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 3 {
		sb, err := Start(context.Background(), Options{Sandbox: sandbox.Options{KeystoreDir: t.TempDir()}, Background: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := sb.Close(); err != nil {
			t.Fatal(err)
		}
		if err := sb.Seeded(context.Background()); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Seeded after Close: %v", err)
		}
		if left := sandboxGoroutines(); len(left) > 0 {
			t.Fatalf("after Close, %d goroutines still run the sandbox:\n%s", len(left), strings.Join(left, "\n\n"))
		}
	}
	// go-ethereum's node stops its own goroutines as it closes, a few of
	// them just after: wait for them, then count.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before three starts and closes, %d after:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

package onchain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"allot/api/sandbox"
)

// TestBackgroundStart starts the sandbox with its seed and deployment in
// the background: the contracts and pools are listed before the deployment
// (held until they are), byte for byte as after it and as a start that
// seeds and deploys all first lists the contracts (deployedDigest).
func TestBackgroundStart(t *testing.T) {
	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	hold := make(chan struct{})
	sb, err := Start(context.Background(), Options{
		Sandbox:      sandbox.Options{Clock: func() time.Time { return start }, KeystoreDir: t.TempDir()},
		MineInterval: -1,
		Background:   true,
		holdDeploy:   hold,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if got := contractsDigest(t, sb); got != deployedDigest {
		t.Errorf("the contracts before the deployment hash to %s, want %s", got, deployedDigest)
	}
	early := poolListings(t, sb)
	if sb.seededNow() {
		t.Fatal("deployed while held")
	}
	close(hold)
	if err := sb.Seeded(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := contractsDigest(t, sb); got != deployedDigest {
		t.Errorf("the contracts after the deployment hash to %s, want %s", got, deployedDigest)
	}
	if got := poolListings(t, sb); got != early {
		t.Errorf("the pools after the deployment differ from those before it:\nbefore %.300s\nafter  %.300s", early, got)
	}
	// Two tokens, the contracts, and one vester's post-claim handler.
	if len(sb.Deployed()) != 2+len(sb.Server.Fixtures().ContractIDs)+1 {
		t.Errorf("deployed %d contracts", len(sb.Deployed()))
	}
}

// TestHoldYieldsToWhatNeedsTheChain holds the chain's start and the seed's
// rest for longer than any test runs: the listings are answered all the
// same, an operation that needs the world on the chain begins the work at
// once and is answered, and a sandbox closed while held closes at once.
func TestHoldYieldsToWhatNeedsTheChain(t *testing.T) {
	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	opts := Options{
		Sandbox:      sandbox.Options{Clock: func() time.Time { return start }, KeystoreDir: t.TempDir()},
		MineInterval: -1,
		Background:   true,
		Hold:         time.Hour,
	}
	sb, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if got := contractsDigest(t, sb); got != deployedDigest {
		t.Errorf("the contracts while held hash to %s, want %s", got, deployedDigest)
	}
	if sb.seededNow() {
		t.Fatal("seeded while held")
	}
	fx := sb.Server.Fixtures()
	req := httptest.NewRequest("GET", "/api/external/v1/allocations/"+fx.AllocationIDs[0]+"/merkle-proof", nil)
	req.Header.Set(sandbox.DefaultAPIKeyHeader, fx.ReadOnlyAPIKey)
	rec := httptest.NewRecorder()
	sb.Server.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("a proof while held: %d %s", rec.Code, rec.Body)
	}
	if err := sb.Seeded(context.Background()); err != nil {
		t.Fatal(err)
	}

	opts.Sandbox.KeystoreDir = t.TempDir()
	held, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := held.Close(); err != nil {
		t.Fatal(err)
	}
	if held.Chain != nil {
		t.Error("a sandbox closed while held started its chain")
	}
	if err := held.Seeded(context.Background()); !errors.Is(err, context.Canceled) {
		t.Errorf("Seeded after a Close while held: %v", err)
	}
}

// poolListings returns every page of every token's pools as the sandbox
// answers them.
func poolListings(t *testing.T, sb *Sandbox) string {
	t.Helper()
	fx := sb.Server.Fixtures()
	var all strings.Builder
	for _, token := range fx.TokenIDs {
		for cursor := ""; ; {
			body := `{"tokenId":"` + token + `"}`
			if cursor != "" {
				body = `{"tokenId":"` + token + `","cursor":"` + cursor + `"}`
			}
			req := httptest.NewRequest("POST", "/api/external/v1/staking/pools", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(sandbox.DefaultAPIKeyHeader, fx.ReadOnlyAPIKey)
			rec := httptest.NewRecorder()
			sb.Server.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("pools %s: %d %s", body, rec.Code, rec.Body)
			}
			all.Write(rec.Body.Bytes())
			var page struct {
				Result struct{ Items []struct{ ID string } } `json:"result"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
				t.Fatal(err)
			}
			if len(page.Result.Items) == 0 {
				break
			}
			cursor = page.Result.Items[len(page.Result.Items)-1].ID
		}
	}
	return all.String()
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

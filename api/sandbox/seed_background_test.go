package sandbox

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitingContext tells when a request starts waiting on it: the sandbox
// selects on Done only to wait for its seed.
type waitingContext struct {
	context.Context
	once    sync.Once
	waiting chan struct{}
}

func (c *waitingContext) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}

// contractsRequest asks for the first token's contracts with ctx.
func contractsRequest(ctx context.Context, srv *Server) *httptest.ResponseRecorder {
	fx := srv.Fixtures()
	req := httptest.NewRequestWithContext(ctx, "POST", adminPrefix+"contracts", strings.NewReader(`{"tokenId":"`+fx.TokenIDs[0]+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(DefaultAPIKeyHeader, fx.ReadOnlyAPIKey)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// TestSeedInTwoParts serves a world seeded by SeedFirst: a request that
// arrives before Finish waits for it, and once Finish has run every answer
// is byte for byte the one-step seed's (seedDigest).
func TestSeedInTwoParts(t *testing.T) {
	world, err := SeedFirst(testStart, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{World: world, Clock: func() time.Time { return testStart }, KeystoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	ctx := &waitingContext{Context: context.Background(), waiting: make(chan struct{})}
	answered := make(chan *httptest.ResponseRecorder, 1)
	go func() { answered <- contractsRequest(ctx, srv) }()
	<-ctx.waiting // the request is in, and waits for the seed
	select {
	case rec := <-answered:
		t.Fatalf("answered before the seed was finished: %d %s", rec.Code, rec.Body)
	default:
	}
	if err := world.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec := <-answered; rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Team & Advisors Vesting") {
		t.Fatalf("the waiting request: %d %s", rec.Code, rec.Body)
	}
	if got := answerDigest(t, srv); got != seedDigest {
		t.Errorf("seeded in two parts, the answers hash to %s, want %s", got, seedDigest)
	}
	if err := world.Finish(context.Background()); err != nil {
		t.Errorf("a second Finish: %v", err)
	}
}

// TestSeedWaitIsBounded: a request waiting for the seed ends with its own
// context, and a seed that failed is said in every answer that needed it.
func TestSeedWaitIsBounded(t *testing.T) {
	world, err := SeedFirst(testStart, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{World: world, KeystoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	// The request gives up with its context; the seed goes on.
	ctx, cancel := context.WithCancel(context.Background())
	waiting := &waitingContext{Context: ctx, waiting: make(chan struct{})}
	answered := make(chan *httptest.ResponseRecorder, 1)
	go func() { answered <- contractsRequest(waiting, srv) }()
	<-waiting.waiting
	cancel()
	if rec := <-answered; rec.Code != http.StatusInternalServerError {
		t.Errorf("a request whose context ended: %d %s", rec.Code, rec.Body)
	}

	// Finish cancelled: the world stays unfinished, and says why.
	stopped, stop := context.WithCancel(context.Background())
	stop()
	if err := world.Finish(stopped); !errors.Is(err, context.Canceled) {
		t.Fatalf("Finish with an ended context: %v", err)
	}
	if err := world.Wait(context.Background()); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait after a cancelled Finish: %v", err)
	}
	rec := contractsRequest(context.Background(), srv)
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "could not finish seeding") {
		t.Errorf("after a cancelled seed: %d %s", rec.Code, rec.Body)
	}

	// A deployment that failed is said too, on the portal as well.
	world2, err := Seed(testStart)
	if err != nil {
		t.Fatal(err)
	}
	failed := errors.New("deploy: the chain is gone")
	srv2, err := New(Options{World: world2, KeystoreDir: t.TempDir(), Ready: func(context.Context) error { return failed }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	rec = contractsRequest(context.Background(), srv2)
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "the chain is gone") {
		t.Errorf("after a failed deployment: %d %s", rec.Code, rec.Body)
	}
	req := httptest.NewRequest("POST", "/api/v2/"+srv2.Fixtures().PortalID+"/humanity/status", strings.NewReader(`{"value":{"value":"0x000000000000000000000000000000000000dEaD"}}`))
	req.Header.Set("Content-Type", "application/json")
	prec := httptest.NewRecorder()
	srv2.ServeHTTP(prec, req)
	if prec.Code != http.StatusInternalServerError || !strings.Contains(prec.Body.String(), codeInternal) {
		t.Errorf("portal after a failed deployment: %d %s", prec.Code, prec.Body)
	}
}

// TestNativeFunds: what a chain funds before the seed is what the seed
// gives the demo wallets.
func TestNativeFunds(t *testing.T) {
	funds, err := NativeFunds()
	if err != nil {
		t.Fatal(err)
	}
	wallets := sharedWorld().Wallets
	if len(funds) != len(wallets) {
		t.Fatalf("%d funded wallets, want %d", len(funds), len(wallets))
	}
	for _, w := range wallets {
		if got := funds[w.Address]; got == nil || got.Cmp(w.Native) != 0 {
			t.Errorf("wallet %d: funded %v, the seed gives %v", w.Index, got, w.Native)
		}
	}
}

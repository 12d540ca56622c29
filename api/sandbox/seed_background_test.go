package sandbox

import (
	"context"
	"encoding/json"
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

// adminRequest asks the administration group for op with ctx: a POST with
// body, or a GET without one.
func adminRequest(ctx context.Context, srv *Server, op, body string) *httptest.ResponseRecorder {
	method := "GET"
	if body != "" {
		method = "POST"
	}
	req := httptest.NewRequestWithContext(ctx, method, adminPrefix+op, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(DefaultAPIKeyHeader, srv.Fixtures().ReadOnlyAPIKey)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// contractsRequest asks for the first token's contracts with ctx.
func contractsRequest(ctx context.Context, srv *Server) *httptest.ResponseRecorder {
	return adminRequest(ctx, srv, "contracts", `{"tokenId":"`+srv.Fixtures().TokenIDs[0]+`"}`)
}

// proofRequest asks for the first fixture allocation's merkle proof, which
// needs the seed's rest, with ctx.
func proofRequest(ctx context.Context, srv *Server) *httptest.ResponseRecorder {
	return adminRequest(ctx, srv, "allocations/"+srv.Fixtures().AllocationIDs[0]+"/merkle-proof", "")
}

// listings returns every token's contracts and pools, every page, as the
// sandbox answers them, failing t on anything but 200.
func listings(t *testing.T, srv *Server) string {
	t.Helper()
	var all strings.Builder
	ask := func(op, body string) string {
		rec := adminRequest(context.Background(), srv, op, body)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", op, body, rec.Code, rec.Body)
		}
		all.WriteString(rec.Body.String())
		return rec.Body.String()
	}
	for _, token := range srv.Fixtures().TokenIDs {
		ask("contracts", `{"tokenId":"`+token+`"}`)
		for cursor := ""; ; {
			body := `{"tokenId":"` + token + `"}`
			if cursor != "" {
				body = `{"tokenId":"` + token + `","cursor":"` + cursor + `"}`
			}
			var page struct {
				Result listResult[struct{ ID string }] `json:"result"`
			}
			if err := json.Unmarshal([]byte(ask("staking/pools", body)), &page); err != nil {
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

// TestListingsAnswerEarly: the contracts and pools listings need only the
// seed's first part, so they are answered before Finish (and, when the
// chain integration says so with ReadyNow, before its deployment), byte
// for byte as after; the operations that need the rest still wait.
func TestListingsAnswerEarly(t *testing.T) {
	world, err := SeedFirst(testStart, 0)
	if err != nil {
		t.Fatal(err)
	}
	deployed := make(chan struct{})
	var isDeployed bool
	srv, err := New(Options{
		World:       world,
		Clock:       func() time.Time { return testStart },
		KeystoreDir: t.TempDir(),
		Ready: func(ctx context.Context) error {
			select {
			case <-deployed:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		},
		ReadyNow: func() bool { return isDeployed },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	early := listings(t, srv)
	if !strings.Contains(early, "Team & Advisors Vesting") || !strings.Contains(early, whalePoolName) {
		t.Fatalf("the early listings lack the first screen's names: %.300s", early)
	}

	// Without ReadyNow the listings wait for Ready too.
	waiter, err := New(Options{World: world, KeystoreDir: t.TempDir(), Ready: srv.readyFn})
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	for _, w := range []struct {
		name string
		srv  *Server
		ask  func(context.Context, *Server) *httptest.ResponseRecorder
	}{
		{"the contracts without ReadyNow", waiter, contractsRequest},
		{"a proof", srv, proofRequest},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		waiting := &waitingContext{Context: ctx, waiting: make(chan struct{})}
		answered := make(chan *httptest.ResponseRecorder, 1)
		go func() { answered <- w.ask(waiting, w.srv) }()
		<-waiting.waiting
		cancel()
		if rec := <-answered; rec.Code != http.StatusInternalServerError {
			t.Errorf("%s before the deployment: %d %s, want it to wait", w.name, rec.Code, rec.Body)
		}
	}

	if err := world.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := listings(t, srv); got != early {
		t.Error("the listings after Finish, before the deployment, differ from the early ones")
	}
	isDeployed = true
	close(deployed)
	if got := listings(t, srv); got != early {
		t.Errorf("the listings once all is ready differ from the early ones:\nearly %.400s\nready %.400s", early, got)
	}
}

// TestSeedInTwoParts serves a world seeded by SeedFirst: a request that
// needs the seed's rest and arrives before Finish waits for it, and once
// Finish has run every answer is byte for byte the one-step seed's
// (seedDigest).
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
	go func() { answered <- proofRequest(ctx, srv) }()
	<-ctx.waiting // the request is in, and waits for the seed
	select {
	case rec := <-answered:
		t.Fatalf("answered before the seed was finished: %d %s", rec.Code, rec.Body)
	default:
	}
	if err := world.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec := <-answered; rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"proof"`) {
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
	go func() { answered <- proofRequest(waiting, srv) }()
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
	for name, rec := range map[string]*httptest.ResponseRecorder{"proof": proofRequest(context.Background(), srv), "contracts": contractsRequest(context.Background(), srv)} {
		if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "could not finish seeding") {
			t.Errorf("%s after a cancelled seed: %d %s", name, rec.Code, rec.Body)
		}
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
	rec := contractsRequest(context.Background(), srv2)
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

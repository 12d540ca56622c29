// Package sessiontest opens sessions for tests: the embedded sandbox and
// its chain, with the service reached through a server that rewrites its
// answers as a hostile service would.
package sessiontest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/onchain"
	"allot/core/config"
	"allot/core/embedded"
	"allot/core/session"
)

// Hostile is the sandbox behind a rewriting server.
type Hostile struct {
	Session *session.Session
	Sandbox *onchain.Sandbox

	mu       sync.Mutex
	rewrites map[string]func(result map[string]any)
	// refusals answer the operations whose path ends in their key with a
	// status and a body of their own, never reaching the sandbox.
	refusals map[string]refusal
	// lies are the node's false answers by method (see NodeLies).
	lies map[string]json.RawMessage
	// cleanup is NewHostile's test's: what NodeLies starts lasts as long.
	cleanup func(func())
}

// NewHostile starts the sandbox and its chain (mining on its own), a
// server in front of it, and a session on that server, with the journal
// in stateDir.
func NewHostile(t testing.TB, stateDir string) *Hostile {
	t.Helper()
	h := &Hostile{rewrites: map[string]func(map[string]any){}, cleanup: t.Cleanup}
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	t.Cleanup(srv.Close)
	sb, err := onchain.Start(context.Background(), onchain.Options{Sandbox: sandbox.Options{PublicURL: srv.URL, KeystoreDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	h.Sandbox = sb
	srv.Config.Handler = http.HandlerFunc(h.serve)

	fx := embedded.Fixtures(sb.Server.Fixtures())
	// The profile pins the sandbox's own deployment, as a user who
	// checked it would: what the service lists beside it is not pinned.
	pins, err := embedded.Pins(context.Background(), sb)
	if err != nil {
		t.Fatal(err)
	}
	p := config.Profile{
		Name: "hostile", BaseURL: fx.BaseURL, PortalURL: fx.PortalURL, PortalID: fx.PortalID, APIKey: fx.APIKey,
		APIKeyHeader: config.DefaultAPIKeyHeader, Tokens: fx.TokenIDs, Timeout: config.Duration{Duration: config.DefaultTimeout},
		ChainID: fx.ChainID, Keystore: fx.KeystoreDir, SigninDomain: fx.SigninDomain, Pins: pins,
	}
	s := &session.Session{Name: p.Name, Profile: p, TokenIDs: fx.TokenIDs, Requests: session.NewRequestLog(), StateDir: stateDir,
		Now: time.Now, Fixtures: &fx, Chain: sb.Chain.Client(), Applied: func() []session.AppliedWrite { return embedded.Applied(sb.Server) }, TrackPoll: 100 * time.Millisecond}
	s.API, err = api.New(api.Config{BaseURL: p.BaseURL, PortalURL: p.PortalURL, PortalID: p.PortalID, APIKey: p.APIKey,
		APIKeyHeader: p.APIKeyHeader, Timeout: p.Timeout.Duration, OnExchange: s.Requests.Add,
		Backoff: func(int) time.Duration { return 0 }}) // its failures are on purpose: nothing to wait for
	if err != nil {
		t.Fatal(err)
	}
	h.Session = s
	return h
}

// Rewrite changes the answers of the operations whose path ends in suffix
// ("/claim", "/merkle-proof", "/contracts", "/parameters/stake"): rewrite
// gets the result object (inside the envelope when there is one) to
// change in place.
func (h *Hostile) Rewrite(suffix string, rewrite func(result map[string]any)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rewrites[suffix] = rewrite
}

type refusal struct {
	status int
	body   string
}

// Refuse answers the operations whose path ends in suffix with status
// and body, as a service that refuses them does; status 0 stops it.
func (h *Hostile) Refuse(suffix string, status int, body string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.refusals == nil {
		h.refusals = map[string]refusal{}
	}
	if status == 0 {
		delete(h.refusals, suffix)
		return
	}
	h.refusals[suffix] = refusal{status, body}
}

func (h *Hostile) refusalOf(path string) (refusal, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for suffix, r := range h.refusals {
		if strings.HasSuffix(path, suffix) {
			return r, true
		}
	}
	return refusal{}, false
}

func (h *Hostile) rewriteOf(path string) func(map[string]any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for suffix, f := range h.rewrites {
		if strings.HasSuffix(path, suffix) {
			return f
		}
	}
	return nil
}

func (h *Hostile) serve(w http.ResponseWriter, r *http.Request) {
	if refused, ok := h.refusalOf(r.URL.Path); ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(refused.status)
		w.Write([]byte(refused.body))
		return
	}
	rec := httptest.NewRecorder()
	h.Sandbox.Server.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if rewrite := h.rewriteOf(r.URL.Path); rewrite != nil && rec.Code == http.StatusOK {
		var answer map[string]any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if dec.Decode(&answer) == nil {
			result := answer
			if inner, ok := answer["result"].(map[string]any); ok {
				result = inner
			}
			rewrite(result)
			body, _ = json.Marshal(answer)
		}
	}
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// PinIn gives the session a configuration file holding its profile with
// pins, which the dashboard's pin question and `allot pin` edit, and
// trusts those pins.
func (h *Hostile) PinIn(t testing.TB, pins config.Pins) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	text := "# a profile with comments, as a user writes it\n[profiles.hostile]\nbase_url = \"" + h.Session.Profile.BaseURL + "\"  # the service\n\n" + pins.TOML("hostile")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Session.ConfigPath = path
	h.Session.Profile.Pins = pins
	return path
}

package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// testStart is the pinned clock's start: mid-morning, so that the seed's
// day (UTC midnight) lies behind it.
var testStart = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

// sharedWorld is seeded once for all tests: a World is read-only.
var sharedWorld = sync.OnceValue(func() *World {
	w, err := Seed(testStart)
	if err != nil {
		panic(err)
	}
	return w
})

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is a sandbox served over loopback HTTP with a pinned clock.
type env struct {
	t     testing.TB
	srv   *Server
	url   string
	fx    Fixtures
	clock *clock
}

func newEnv(t testing.TB, opts Options) *env {
	t.Helper()
	hs := httptest.NewUnstartedServer(nil)
	e := &env{t: t, url: "http://" + hs.Listener.Addr().String(), clock: &clock{t: testStart}}
	opts.PublicURL = e.url
	opts.Clock = e.clock.Now
	if opts.World == nil {
		opts.World = sharedWorld()
	}
	if opts.KeystoreDir == "" {
		opts.KeystoreDir = t.TempDir()
	}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = srv
	hs.Start()
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
	})
	e.srv, e.fx = srv, srv.Fixtures()
	return e
}

// response is an answer, read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request; body is marshalled unless it is a string or []byte.
func (e *env) do(method, path string, header map[string]string, body any) response {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.url+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatalf("%s %s: read: %v", method, path, err)
	}
	return response{res.StatusCode, res.Header, data}
}

// admin sends an administration request with the full key.
func (e *env) admin(method, op string, body any) response {
	e.t.Helper()
	return e.do(method, adminPrefix+op, map[string]string{DefaultAPIKeyHeader: e.fx.APIKey}, body)
}

// result decodes a 200 envelope's result into v.
func (r response) result(t testing.TB, v any) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	var env struct {
		IsProcessed bool            `json:"isProcessed"`
		Result      json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("decode envelope: %v: %.200s", err, r.body)
	}
	if !env.IsProcessed {
		t.Fatalf("isProcessed false: %s", r.body)
	}
	if err := json.Unmarshal(env.Result, v); err != nil {
		t.Fatalf("decode result: %v: %.200s", err, env.Result)
	}
}

// adminError is a D2 error body.
type adminError struct {
	IsProcessed *bool `json:"isProcessed"`
	Error       struct {
		Type    string   `json:"type"`
		Message string   `json:"message"`
		Details []detail `json:"details"`
	} `json:"error"`
}

// wantAdminError checks a D2 error: status, type, and for 400 a detail
// naming path.
func (r response) wantAdminError(t testing.TB, status int, kind, path string) adminError {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	var e adminError
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("decode error body: %v: %s", err, r.body)
	}
	if e.IsProcessed == nil || *e.IsProcessed || e.Error.Type != kind || e.Error.Message == "" {
		t.Fatalf("error body %s, want isProcessed false and type %s", r.body, kind)
	}
	if status != http.StatusBadRequest {
		if e.Error.Details != nil {
			t.Fatalf("details on a %d: %s", status, r.body)
		}
		return e
	}
	for _, d := range e.Error.Details {
		if d.Path == path && d.Message != "" {
			return e
		}
	}
	t.Fatalf("no detail for path %q in %s", path, r.body)
	return e
}

// wantPortalError checks a D10 error: {"error": code}, or for a 400 the
// errors list naming path.
func (r response) wantPortalError(t testing.TB, status int, codeOrPath string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if status == http.StatusBadRequest {
		var body portalErrors
		if err := json.Unmarshal(r.body, &body); err != nil {
			t.Fatalf("decode: %v: %s", err, r.body)
		}
		for _, d := range body.Errors {
			if d.Path == codeOrPath && d.Message != "" {
				return
			}
		}
		t.Fatalf("no error for path %q in %s", codeOrPath, r.body)
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("decode: %v: %s", err, r.body)
	}
	if len(body) != 1 || body["error"] != codeOrPath {
		t.Fatalf("body %s, want exactly {\"error\": %q}", r.body, codeOrPath)
	}
}

// obj is shorthand for a JSON object body.
type obj = map[string]any

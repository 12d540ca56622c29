package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const (
	tokenID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
	otherID = "0b7d9d4a-0000-4000-8000-000000000001"
)

func newTestClient(t *testing.T, h http.HandlerFunc, exchanges *[]Exchange) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, PortalID: "p1", APIKey: "secret-key", Timeout: 2 * time.Second,
		OnExchange: func(x Exchange) {
			if exchanges != nil {
				*exchanges = append(*exchanges, x)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	c.sleep = noSleep
	return c
}

func reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		check  func(error) bool
		text   string
	}{
		{"validation", 400, `{"isProcessed":false,"error":{"type":"ValidationError","message":"bad","details":[{"path":"tokenId","message":"must be a UUID"}]}}`,
			func(err error) bool { var v *ValidationError; return errors.As(err, &v) && v.Remote }, "tokenId: must be a UUID"},
		{"unauthorized", 401, `{"isProcessed":false,"error":{"type":"UnauthorizedError","message":"no"}}`,
			func(err error) bool { return errors.Is(err, ErrUnauthorized) }, "API key is missing or invalid"},
		{"forbidden", 403, `{"isProcessed":false,"error":{"type":"ForbiddenError","message":"scope"}}`,
			func(err error) bool { return errors.Is(err, ErrForbidden) }, "scope FULL"},
		{"not found", 404, `{"isProcessed":false,"error":{"type":"NotFoundError","message":"token not found"}}`,
			func(err error) bool { return errors.Is(err, ErrNotFound) }, "token not found"},
		{"server", 500, `{"isProcessed":false,"error":{"type":"InternalError","message":"boom"}}`,
			func(err error) bool { return errors.Is(err, ErrServer) }, "boom"},
		{"html proxy page", 502, "<html><body><h1>502 Bad Gateway</h1>\x1b[31m</body></html>",
			func(err error) bool { var u *UnexpectedResponseError; return errors.As(err, &u) && u.Status == 502 }, "502 Bad Gateway"},
		{"malformed json", 200, `{"isProcessed":true,"result":{"items":[`,
			func(err error) bool { var u *UnexpectedResponseError; return errors.As(err, &u) }, "not JSON"},
		{"other shape", 200, `{"isProcessed":true,"result":{"items":"nope","total":1}}`,
			func(err error) bool { var u *UnexpectedResponseError; return errors.As(err, &u) }, "another shape"},
		{"not processed on 200", 200, `{"isProcessed":false,"result":null}`,
			func(err error) bool { return errors.Is(err, ErrServer) }, "did not process"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, reply(tt.status, tt.body), nil)
			_, err := c.Contracts(context.Background(), tokenID)
			if err == nil || !tt.check(err) {
				t.Fatalf("err = %#v", err)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("message %q lacks %q", err, tt.text)
			}
			if strings.ContainsRune(err.Error(), 0x1b) || strings.Contains(err.Error(), "secret-key") {
				t.Errorf("message not safe: %q", err)
			}
		})
	}
}

func TestBareResultWithoutEnvelope(t *testing.T) {
	c := newTestClient(t, reply(200, `{"items":[{"id":"x","balance":"12.50","createdAt":"2026-01-02T03:04:05Z"}],"total":1}`), nil)
	list, err := c.Contracts(context.Background(), tokenID)
	if err != nil {
		t.Fatal(err)
	}
	if list.Total != 1 || list.Items[0].Balance.String() != "12.5" || list.Items[0].CreatedAt.Year() != 2026 {
		t.Errorf("list = %+v", list)
	}
}

func TestPortalErrors(t *testing.T) {
	tests := []struct {
		status int
		body   string
		want   error
	}{
		{401, `{"error":"Invalid signature"}`, ErrInvalidSignature},
		{401, `{"error":"UNAUTHORIZED"}`, ErrUnauthorized},
		{404, `{"error":"STAKING_POOL_NOT_FOUND"}`, ErrPoolNotFound},
		{500, `{"error":"internal server error"}`, ErrServer},
	}
	for _, tt := range tests {
		c := newTestClient(t, reply(tt.status, tt.body), nil)
		_, err := c.StakeParameters(context.Background(), "tok", tokenID, mustAmount(t, "1"))
		if !errors.Is(err, tt.want) {
			t.Errorf("%d %s: err = %v", tt.status, tt.body, err)
		}
	}
	c := newTestClient(t, reply(401, `{"error":"UNAUTHORIZED"}`), nil)
	_, err := c.SubmissionAccounts(context.Background(), "expired-token")
	if err == nil || !strings.Contains(err.Error(), "portal access token") || strings.Contains(err.Error(), "expired-token") {
		t.Errorf("401 on a portal call: %v", err)
	}
	c = newTestClient(t, reply(400, `{"errors":[{"path":"amount","message":"is required"}]}`), nil)
	_, err = c.StakeParameters(context.Background(), "tok", tokenID, mustAmount(t, "1"))
	if err == nil || !strings.Contains(err.Error(), "amount: is required") {
		t.Errorf("portal 400: %v", err)
	}
}

func mustAmount(t *testing.T, s string) Number {
	t.Helper()
	n, err := ParseAmount(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestReadsAreRetried(t *testing.T) {
	var calls atomic.Int32
	var xs []Exchange
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `{"isProcessed":true,"result":{"items":[],"total":0}}`)
	}, &xs)
	if _, err := c.Contracts(context.Background(), tokenID); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 || len(xs) != 3 || xs[2].Attempt != 3 {
		t.Errorf("calls %d, exchanges %d", calls.Load(), len(xs))
	}

	calls.Store(0)
	c = newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}, nil)
	if _, err := c.Contracts(context.Background(), tokenID); !errors.As(err, new(*UnexpectedResponseError)) && !errors.Is(err, ErrServer) ||
		strings.Count(err.Error(), "contracts") != 1 {
		t.Errorf("after 3 502s: %v", err)
	}
	c = newTestClient(t, reply(http.StatusBadGateway, "<html>bad gateway</html>"), nil)
	if _, err := c.StreamStakes(context.Background(), StakesRequest{StakingPoolID: tokenID}, func([]StakeRow) error { return nil }); !errors.As(err, new(*UnexpectedResponseError)) ||
		err.Error() != "staking/stakes: unexpected response (status 502, not JSON): <html>bad gateway</html> (tried 5 times)" {
		t.Errorf("stakes after 3 502s: %v", err)
	}
	if calls.Load() != maxTries {
		t.Errorf("tried %d times, want %d", calls.Load(), maxTries)
	}
}

// resetAfterRead hijacks the connection and closes it after reading the
// request: the server may have applied it, the client never hears.
func resetAfterRead(calls *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.ReadAll(r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			if tcp, ok := conn.(*net.TCPConn); ok {
				tcp.SetLinger(0)
			}
			conn.Close()
		}
	}
}

func TestWritesAreNeverRetried(t *testing.T) {
	var calls atomic.Int32
	c := newTestClient(t, resetAfterRead(&calls), nil)
	_, err := c.CreateTransaction(context.Background(), &InitializeRequest{ContractID: tokenID, AdminWalletID: otherID})
	var unknown *OutcomeUnknownError
	if !errors.As(err, &unknown) {
		t.Fatalf("err = %v, want OutcomeUnknownError", err)
	}
	if !strings.Contains(err.Error(), "may have been applied") {
		t.Errorf("message %q", err)
	}
	if calls.Load() != 1 {
		t.Errorf("write sent %d times", calls.Load())
	}

	calls.Store(0)
	if _, err := c.Contracts(context.Background(), tokenID); err == nil {
		t.Error("reset read succeeded")
	}
	if calls.Load() != maxTries {
		t.Errorf("read tried %d times, want %d", calls.Load(), maxTries)
	}
}

func TestPagination(t *testing.T) {
	page := func(ids []string, total int, extra string) string {
		items := make([]string, len(ids))
		for i, id := range ids {
			items[i] = `{"id":"` + id + `"}`
		}
		return `{"isProcessed":true,"result":{"items":[` + strings.Join(items, ",") + `],"total":` + itoa(total) + extra + `}}`
	}
	tests := []struct {
		name    string
		pages   map[string]string // cursor -> body
		want    int
		maxReqs int
	}{
		{"last id as cursor", map[string]string{"": page([]string{"a", "b"}, 3, ""), "b": page([]string{"c"}, 3, "")}, 3, 2},
		{"nextCursor", map[string]string{"": page([]string{"a"}, 2, `,"nextCursor":"n1"`), "n1": page([]string{"b"}, 2, "")}, 2, 2},
		{"empty page stops", map[string]string{"": page([]string{"a"}, 5, ""), "a": page(nil, 5, "")}, 1, 2},
		{"repeated cursor stops", map[string]string{"": page([]string{"a"}, 99, `,"nextCursor":"same"`), "same": page([]string{"b"}, 99, `,"nextCursor":"same"`)}, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reqs atomic.Int32
			c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
				reqs.Add(1)
				var body struct{ Cursor string }
				json.NewDecoder(r.Body).Decode(&body)
				io.WriteString(w, tt.pages[body.Cursor])
			}, nil)
			all, err := c.AllPools(context.Background(), tokenID)
			if err != nil {
				t.Fatal(err)
			}
			if len(all.Items) != tt.want || int(reqs.Load()) > tt.maxReqs {
				t.Errorf("%d items in %d requests", len(all.Items), reqs.Load())
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestExchangeRedactsAndCurl(t *testing.T) {
	var xs []Exchange
	c := newTestClient(t, reply(200, `{"accessToken":"jwt-secret","expiration":"2026-11-22T10:10:00.000Z"}`), &xs)
	res, err := c.SignIn(context.Background(), "0x"+strings.Repeat("ab", 20), "msg", "0xsig")
	if err != nil {
		t.Fatal(err)
	}
	if res.AccessToken != "jwt-secret" || strings.Contains(res.String(), "jwt-secret") {
		t.Errorf("token %q, String %q", res.AccessToken, res)
	}
	if strings.Contains(string(xs[0].ResponseBody), "jwt-secret") {
		t.Errorf("exchange keeps the token: %s", xs[0].ResponseBody)
	}

	xs = nil
	c = newTestClient(t, reply(200, `{"isProcessed":true,"result":{"items":[],"total":0}}`), &xs)
	c.Contracts(context.Background(), tokenID)
	x := xs[0]
	if got := x.RequestHeaders.Get(DefaultAPIKeyHeader); got != Redacted {
		t.Errorf("api key header %q", got)
	}
	curl := x.Curl()
	if strings.Contains(curl, "secret-key") || !strings.Contains(curl, "$ALLOT_API_KEY") || !strings.Contains(curl, `--data-raw '{"tokenId":"`+tokenID+`"}'`) {
		t.Errorf("curl: %s", curl)
	}
	if x.Op != "contracts" || x.Status != 200 || x.Method != "POST" {
		t.Errorf("exchange %+v", x)
	}
}

func TestShellQuote(t *testing.T) {
	if got := shellQuote(`it's $HOME`); got != `'it'\''s $HOME'` {
		t.Errorf("shellQuote = %s", got)
	}
}

// TestReadsRetriedOn500: a read that gets the service's 500 is tried
// again after the backoff, as a reset is; a write that gets one is not,
// nor a read that gets a 501 (asking again gets the same).
func TestReadsRetriedOn500(t *testing.T) {
	var calls atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"isProcessed":false,"error":{"type":"InternalError","message":"injected fault (500)"}}`)
			return
		}
		io.WriteString(w, `{"isProcessed":true,"result":{"items":[],"total":0}}`)
	}, nil)
	var waits []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	if _, err := c.Contracts(context.Background(), tokenID); err != nil || calls.Load() != 2 {
		t.Fatalf("read after one 500: %v, %d calls", err, calls.Load())
	}
	if len(waits) != 1 || waits[0] < 200*time.Millisecond {
		t.Errorf("waited %v before the second try, want the backoff", waits)
	}

	calls.Store(0)
	c = newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}, nil)
	if _, err := c.CreateTransaction(context.Background(), &InitializeRequest{ContractID: tokenID, AdminWalletID: otherID}); err == nil || calls.Load() != 1 {
		t.Errorf("write on a 500: %v after %d calls, want one", err, calls.Load())
	}
	calls.Store(0)
	c = newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusNotImplemented)
	}, nil)
	if _, err := c.Contracts(context.Background(), tokenID); err == nil || calls.Load() != 1 {
		t.Errorf("read on a 501: %v after %d calls, want one", err, calls.Load())
	}
}

// TestRetryBackoffIsCancellable: a read waiting to try again ends with
// its context, and tries no more.
func TestRetryBackoffIsCancellable(t *testing.T) {
	var calls atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	c.sleep = func(ctx context.Context, _ time.Duration) error { cancel(); return noSleep(ctx, 0) }
	_, err := c.Contracts(ctx, tokenID)
	if !errors.Is(err, context.Canceled) || calls.Load() != 1 {
		t.Errorf("cancelled during the backoff: %v after %d calls", err, calls.Load())
	}
}

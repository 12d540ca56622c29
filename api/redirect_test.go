package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// elsewhere is another host that counts what reaches it: nothing should.
func elsewhere(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusOK) // an empty 200 was once taken as success
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestRedirectsAreRefused: a redirect of any kind, on a read, a write, a
// portal call or the creative upload, is an error naming where it pointed
// (without credentials or query); nothing reaches the other host and
// nothing is tried again.
func TestRedirectsAreRefused(t *testing.T) {
	other, hits := elsewhere(t)
	target := strings.Replace(other.URL, "http://", "http://mallory:hunter2@", 1) + "/steal?X-Amz-Signature=sig123"
	for _, status := range []int{301, 302, 303, 307, 308} {
		var calls atomic.Int32
		var xs []Exchange
		c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			http.Redirect(w, r, target, status)
		}, &xs)
		ctx := context.Background()
		errs := map[string]error{}
		_, errs["read"] = c.Contracts(ctx, tokenID)
		_, errs["write"] = c.CreateTransaction(ctx, &InitializeRequest{ContractID: tokenID, AdminWalletID: otherID})
		_, errs["portal"] = c.SignIn(ctx, "0x"+strings.Repeat("ab", 20), "msg", "0xsig")
		errs["upload"] = c.Upload(ctx, c.base.String()+"/put", "image/png", strings.NewReader("png"), 3)
		for what, err := range errs {
			var re *RedirectError
			if !errors.As(err, &re) || re.Status != status {
				t.Errorf("%d %s: err = %v, want a RedirectError", status, what, err)
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, other.URL+"/steal") || strings.Contains(msg, "hunter2") || strings.Contains(msg, "mallory") || strings.Contains(msg, "sig123") {
				t.Errorf("%d %s: message %q", status, what, msg)
			}
		}
		if calls.Load() != 4 {
			t.Errorf("%d: the service was called %d times, want once per call (no retry)", status, calls.Load())
		}
		for _, x := range xs {
			if x.Status != status || x.Err == "" {
				t.Errorf("%d: exchange %s status %d err %q", status, x.Op, x.Status, x.Err)
			}
		}
	}
	if hits.Load() != 0 {
		t.Errorf("the other host was reached %d times", hits.Load())
	}
}

// TestRedirectRefusalKeepsACallersClient: a caller's own http.Client is
// used for its transport, but never follows redirects, and is not changed.
func TestRedirectRefusalKeepsACallersClient(t *testing.T) {
	other, hits := elsewhere(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	own := &http.Client{}
	c, err := New(Config{BaseURL: srv.URL, APIKey: "k", HTTPClient: own})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Contracts(context.Background(), tokenID); !errors.As(err, new(*RedirectError)) {
		t.Errorf("err = %v", err)
	}
	if hits.Load() != 0 || own.CheckRedirect != nil {
		t.Errorf("other host hit %d times; caller's client changed: %v", hits.Load(), own.CheckRedirect != nil)
	}
}

package api

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRequestURLsKeepThePrefixAndQuery: a base or portal URL with a path
// prefix and a query string gives well-formed request URLs: the prefix
// before the API path, the query after it, merged with the request's own.
func TestRequestURLsKeepThePrefixAndQuery(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.EscapedPath()+"?"+r.URL.RawQuery)
		mu.Unlock()
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL + "/svc/?tenant=a", PortalURL: srv.URL + "/portal?x=1#frag", PortalID: "p 1/..",
		APIKey: "k", Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c.Contracts(ctx, tokenID)
	c.MerkleProof(ctx, tokenID)
	c.Humanity(ctx, "0x"+strings.Repeat("ab", 20))
	c.StakeParameters(ctx, "tok", tokenID, mustAmount(t, "1.5"))
	want := []string{
		"/svc/api/external/v1/contracts?tenant=a",
		"/svc/api/external/v1/allocations/" + tokenID + "/merkle-proof?tenant=a",
		"/portal/api/v2/p%201%2F../humanity/status?x=1",
		"/portal/api/p%201%2F../parameters/stake?amount=1.5&stakingPoolId=" + tokenID + "&x=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("request URLs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPortalIDCannotLeaveItsSegment: a portal id is one path segment; a dot
// segment, which a server or proxy would resolve, is refused.
func TestPortalIDCannotLeaveItsSegment(t *testing.T) {
	for _, id := range []string{".", ".."} {
		if _, err := New(Config{BaseURL: "https://svc.example", PortalID: id}); err == nil {
			t.Errorf("portal id %q accepted", id)
		}
	}
}

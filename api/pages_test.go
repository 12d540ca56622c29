package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// endlessPools answers every page with n pools of fresh ids, a next
// cursor, and a total no walk reaches; each pool's name is pad long.
func endlessPools(requests *atomic.Int32, n, pad int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		page := requests.Add(1)
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(`{"id":"p%d-%d","name":"%s"}`, page, i, strings.Repeat("n", pad))
		}
		fmt.Fprintf(w, `{"isProcessed":true,"result":{"items":[%s],"total":1000000000000,"nextCursor":"c%d"}}`, strings.Join(items, ","), page)
	}
}

// TestPoolPagingIsBounded: a service that pages without end is stopped by
// the pool count, by the bytes of its pages, or by the page cap, each with
// an error that says so, never a silent part of the list.
func TestPoolPagingIsBounded(t *testing.T) {
	tests := []struct {
		name      string
		perPage   int
		pad       int
		maxBody   int64
		want      string
		wantPages int32
	}{
		{"pools", 50, 0, MaxResponseSize, fmt.Sprintf("more than %d pools", MaxPools), MaxPools/50 + 1},
		{"bytes", 1, 300 << 10, 1 << 20, "more than 1 MiB of pools", 4},
		{"pages", 1, 0, MaxResponseSize, "still had pools after 1000 pages (1000 read of the 1000000000000 it announced)", MaxPoolPages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var requests atomic.Int32
			c := newTestClient(t, endlessPools(&requests, tt.perPage, tt.pad), nil)
			c.maxBody = tt.maxBody
			all, err := c.AllPools(context.Background(), tokenID)
			var limit *LimitError
			if !errors.As(err, &limit) || !strings.Contains(err.Error(), tt.want) || all != nil {
				t.Fatalf("err = %v, list %v", err, all != nil)
			}
			if requests.Load() != tt.wantPages {
				t.Errorf("%d pages asked, want %d", requests.Load(), tt.wantPages)
			}
		})
	}
}

// TestListItemsAreBounded: one answer of more than MaxListItems items (empty
// objects cost two bytes each) is refused while it is decoded.
func TestListItemsAreBounded(t *testing.T) {
	body := `{"items":[` + strings.Repeat(`{},`, MaxListItems) + `{}],"total":1}`
	var l List[Stake]
	if err := json.Unmarshal([]byte(body), &l); err == nil || !strings.Contains(err.Error(), "more than 250000 items") {
		t.Errorf("err = %v, %d items", err, len(l.Items))
	}
	body = `{"items":[` + strings.Repeat(`{},`, MaxListItems-1) + `{}],"total":1}`
	if err := json.Unmarshal([]byte(body), &l); err != nil || len(l.Items) != MaxListItems {
		t.Errorf("err = %v, %d items", err, len(l.Items))
	}
}

// roundTripFunc serves requests without a network.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// FuzzPoolPages serves arbitrary page bodies, one line per request in turn:
// AllPools ends within MaxPoolPages requests, and returns a bounded list or
// a typed error.
func FuzzPoolPages(f *testing.F) {
	f.Add("{\"items\":[{\"id\":\"a\"}],\"total\":2,\"nextCursor\":\"n\"}\n{\"items\":[{\"id\":\"b\"}],\"total\":2}")
	f.Add("{\"isProcessed\":true,\"result\":{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"total\":9}}\n{\"items\":[],\"total\":9}")
	f.Add("{\"items\":[{\"id\":\"x$N\"}],\"total\":99,\"cursor\":\"x$N\"}")
	f.Add("{\"items\":[{\"id\":\"a\",\"totalStaked\":1e99}],\"total\":1e3}")
	f.Fuzz(func(t *testing.T, script string) {
		pages := strings.Split(script, "\n")
		var requests atomic.Int32
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			n := int(requests.Add(1)) - 1
			// A cursor-dependent tail keeps a one-line script from
			// repeating its cursor.
			body := strings.ReplaceAll(pages[n%len(pages)], "$N", fmt.Sprint(n))
			return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body)), ContentLength: -1, Request: r}, nil
		})}
		c, err := New(Config{BaseURL: "https://svc.example", APIKey: "k", HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		c.sleep = noSleep
		all, err := c.AllPools(context.Background(), tokenID)
		if requests.Load() > MaxPoolPages*maxTries {
			t.Fatalf("%d requests", requests.Load())
		}
		if err != nil {
			if !typedReadError(err) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			if len(err.Error()) > 400 || strings.ContainsRune(err.Error(), 0x1b) {
				t.Fatalf("message %q", err)
			}
			return
		}
		if len(all.Items) > MaxPools || all.Total < len(all.Items) {
			t.Fatalf("%d items, total %d", len(all.Items), all.Total)
		}
	})
}

// typedReadError reports whether err is one of the errors a read may end
// in: past a bound, an answer allot cannot read, a refusal or failure the
// service reports, or a request it finds invalid.
func typedReadError(err error) bool {
	var (
		l *LimitError
		u *UnexpectedResponseError
		s *StatusError
		v *ValidationError
	)
	return errors.As(err, &l) || errors.As(err, &u) || errors.As(err, &s) || errors.As(err, &v)
}

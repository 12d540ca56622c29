package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestOversizedBodyIsReadOnceAndNoFurther: a body past the size limit,
// announced or not, is refused after reading at most the limit (plus what
// the sockets buffer), and the refusal is not tried again.
func TestOversizedBodyIsReadOnceAndNoFurther(t *testing.T) {
	const limit = 1 << 20
	const endless = 256 << 20 // what the server would send if let
	// Loopback sockets buffer a few MiB between the server's writes and
	// the client's reads; served bytes beyond limit+slack mean the client
	// kept reading.
	const slack = 16 << 20
	for _, announce := range []bool{false, true} {
		var calls, served atomic.Int64
		c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			if announce {
				w.Header().Set("Content-Length", strconv.Itoa(endless))
			}
			chunk := []byte(strings.Repeat(" ", 32<<10))
			for sent := 0; sent < endless; sent += len(chunk) {
				n, err := w.Write(chunk)
				served.Add(int64(n))
				if err != nil {
					return
				}
			}
		}, nil)
		c.maxBody = limit
		_, err := c.Contracts(context.Background(), tokenID)
		var u *UnexpectedResponseError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "larger than 1 MiB") {
			t.Fatalf("announce %v: err = %v", announce, err)
		}
		if calls.Load() != 1 {
			t.Errorf("announce %v: fetched %d times, want once", announce, calls.Load())
		}
		if served.Load() > limit+slack {
			t.Errorf("announce %v: %d bytes served, want at most %d", announce, served.Load(), limit+slack)
		}
	}
}

// TestSmallAnswersAreBoundedTighter: a claim answer, small by nature, is
// refused past 1 MiB: 2 MiB of empty instructions would decode to tens of
// megabytes of structs.
func TestSmallAnswersAreBoundedTighter(t *testing.T) {
	var calls atomic.Int32
	instructions := strings.Repeat(`{},`, 700_000) + `{}`
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Write([]byte(`{"parameters":[{"instructions":[` + instructions + `]}]}`))
	}, nil)
	_, err := c.Claim(context.Background(), tokenID, ClaimRequest{Sender: "0x" + strings.Repeat("ab", 20)})
	if !errors.As(err, new(*UnexpectedResponseError)) || !strings.Contains(err.Error(), "larger than 1 MiB") || calls.Load() != 1 {
		t.Errorf("err = %v after %d calls", err, calls.Load())
	}
}

package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// TestReadOnlyClientWritesNothing: a read-only client refuses every
// write before a byte is sent (the transactions, schedules, creatives,
// claims and sign-in of D3 and the portal, and an upload), and reads as
// before.
func TestReadOnlyClientWritesNothing(t *testing.T) {
	var writes, reads atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/contracts") || strings.HasSuffix(r.URL.Path, "merkle-proof") {
			reads.Add(1)
		} else {
			writes.Add(1)
		}
		w.Write([]byte(`{"statusCode":200,"isProcessed":true,"result":{"items":[]}}`))
	}, nil).ReadOnly()
	ctx := context.Background()
	for name, write := range map[string]func() error{
		"transactions/create": func() error { _, err := c.CreateTransaction(ctx, NewTransactionRequest(ActionInitialize)); return err },
		"schedules/create":    func() error { _, err := c.CreateSchedule(ctx, ScheduleRequest{}); return err },
		"upload-url":          func() error { _, err := c.CreativeUploadURL(ctx, UploadURLRequest{}); return err },
		"creatives/create":    func() error { _, err := c.CreateCreative(ctx, CreateCreativeRequest{}); return err },
		"claim":               func() error { _, err := c.Claim(ctx, tokenID, ClaimRequest{}); return err },
		"signin":              func() error { _, err := c.SignIn(ctx, "0x1", "message", "0x2"); return err },
		"upload":              func() error { return c.Upload(ctx, "http://127.0.0.1:1/put", "image/png", strings.NewReader("x"), 1) },
	} {
		if err := write(); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: %v, want ErrReadOnly", name, err)
		}
	}
	if n := writes.Load(); n != 0 {
		t.Errorf("%d writes reached the service", n)
	}
	if _, err := c.Contracts(ctx, tokenID); err != nil || reads.Load() != 1 {
		t.Errorf("a read: %v (%d reads)", err, reads.Load())
	}
}

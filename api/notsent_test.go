package api

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// closedPort returns the address of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// offlineResolver fails every lookup without touching the network, as a
// name under .invalid fails everywhere.
func offlineResolver() *http.Client {
	d := &net.Dialer{Resolver: &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("no name server in this test")
	}}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// TestFailuresBeforeSendingAreNotSent: a refused connection, a name that
// does not resolve and a failed TLS handshake send nothing, so a write
// that fails so is "not sent", never "may have been applied"; a write
// whose connection dies after it was read stays unknown.
func TestFailuresBeforeSendingAreNotSent(t *testing.T) {
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the TLS server got a request")
	}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	tests := []struct {
		name   string
		base   string
		client *http.Client
	}{
		{"connection refused", "http://" + closedPort(t), nil},
		{"name does not resolve", "http://service.invalid", offlineResolver()},
		{"TLS handshake fails", tlsSrv.URL, nil}, // its certificate is not trusted
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var xs []Exchange
			c, err := New(Config{BaseURL: tt.base, APIKey: "secret-key", Timeout: 5 * time.Second, HTTPClient: tt.client,
				OnExchange: func(x Exchange) { xs = append(xs, x) }})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.CreateTransaction(context.Background(), &InitializeRequest{ContractID: tokenID, AdminWalletID: otherID})
			if !errors.Is(err, ErrNotSent) || errors.As(err, new(*OutcomeUnknownError)) {
				t.Fatalf("err = %v, want not sent", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "transactions/create: not sent") || strings.Contains(msg, "may have been applied") || strings.Contains(msg, tt.base) {
				t.Errorf("message %q", msg)
			}
			if len(xs) != 1 || !strings.Contains(xs[0].Err, "not sent") {
				t.Errorf("exchanges %+v", xs)
			}
		})
	}
}

// TestFailureAfterSendingIsUnknown: once the connection carried the
// request, a failure is an unknown outcome, and not "not sent".
func TestFailureAfterSendingIsUnknown(t *testing.T) {
	var calls atomic.Int32
	c := newTestClient(t, resetAfterRead(&calls), nil)
	_, err := c.CreateTransaction(context.Background(), &InitializeRequest{ContractID: tokenID, AdminWalletID: otherID})
	if !errors.As(err, new(*OutcomeUnknownError)) || errors.Is(err, ErrNotSent) || calls.Load() != 1 {
		t.Errorf("err = %v after %d calls", err, calls.Load())
	}
}

// TestCancelledBeforeSendingIsNotSent: a write cancelled while its
// connection was still being made was not sent.
func TestCancelledBeforeSendingIsNotSent(t *testing.T) {
	dialing := make(chan struct{})
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		close(dialing)
		<-ctx.Done()
		return nil, ctx.Err()
	}}}
	c, err := New(Config{BaseURL: "http://service.invalid", APIKey: "k", HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-dialing; cancel() }()
	_, err = c.CreateTransaction(ctx, &InitializeRequest{ContractID: tokenID, AdminWalletID: otherID})
	if !errors.Is(err, ErrNotSent) || !errors.Is(err, context.Canceled) || errors.As(err, new(*OutcomeUnknownError)) {
		t.Errorf("err = %v", err)
	}
}

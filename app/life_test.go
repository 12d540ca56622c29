package app

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/api"
	"allot/core/session"
	"allot/views/widget"
)

// hanging is a service whose every request blocks until its context
// ends: each request's context is handed to the test as it arrives, so
// that the test sees the cancellation itself.
type hanging struct{ arrived chan context.Context }

func (h hanging) RoundTrip(r *http.Request) (*http.Response, error) {
	h.arrived <- r.Context()
	<-r.Context().Done()
	return nil, r.Context().Err()
}

// hangingSession is a profile on a service that never answers, with a
// client that would wait far longer than any test.
func hangingSession(t *testing.T, name string) (*session.Session, hanging) {
	t.Helper()
	h := hanging{arrived: make(chan context.Context, 64)}
	s := &session.Session{Name: name, TokenIDs: []string{"7d3c1f0e-5b1a-4c2e-9a47-1f2b3c4d5e6f"}, Requests: session.NewRequestLog(), Now: time.Now}
	var err error
	s.API, err = api.New(api.Config{BaseURL: "http://service.invalid", APIKey: "k", Timeout: time.Hour,
		HTTPClient: &http.Client{Transport: h}})
	if err != nil {
		t.Fatal(err)
	}
	return s, h
}

// arrival waits for the next request to reach the service.
func (h hanging) arrival(t *testing.T) context.Context {
	t.Helper()
	select {
	case ctx := <-h.arrived:
		return ctx
	case <-time.After(10 * time.Second):
		t.Fatal("no request reached the service")
	}
	return nil
}

// ended waits for a request's context to end, as the cancellation the
// dashboard owes it.
func ended(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the request in flight was not cancelled", what)
	}
}

// TestQuitCancelsWork: quitting cancels the loads in flight instead of
// leaving them to run for no one.
func TestQuitCancelsWork(t *testing.T) {
	t.Parallel()
	s, h := hangingSession(t, "hang")
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
	load := h.arrival(t)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	ended(t, load, "quit")
}

// TestSwitchCancelsTheOldProfilesWork: a profile switch cancels what the
// old profile's screens had in flight, and not what the new one's start;
// a first load (a read) running is not asked about.
func TestSwitchCancelsTheOldProfilesWork(t *testing.T) {
	t.Parallel()
	first, h1 := hangingSession(t, "one")
	second, h2 := hangingSession(t, "two")
	sw := session.Switch{Names: []string{"one", "two"}, Open: func(string) (*session.Session, error) { return second, nil }}
	m := New(first, Options{Clipboard: widget.Clipboard{Out: io.Discard}, Switch: sw})
	f := &flow{t: t, s: first, tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))}
	old := h1.arrival(t)
	f.runes(":").typ("profile two").key(tea.KeyEnter)
	fresh := h2.arrival(t)
	if strings.Contains(f.seen.String(), "(y/N)") {
		t.Fatal("a switch with only a first load running asked")
	}
	ended(t, old, "profile switch")
	if fresh.Err() != nil {
		t.Fatalf("the new profile's load was cancelled: %v", fresh.Err())
	}
	f.quit()
	ended(t, fresh, "quit after the switch")
}

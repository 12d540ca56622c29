package app

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/session"
	"allot/views/widget"
)

// TestQuitQuestionGoesWhenWorkEnds: q while the first load runs asks;
// once the load is done the question goes, and the program stays.
func TestQuitQuestionGoesWhenWorkEnds(t *testing.T) {
	t.Parallel()
	// The gate keeps the load running while q is pressed; nothing is
	// timed: the test waits for what is drawn.
	s, open := gatedSession(t)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, m: m, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	f.wait("loading").runes("q").wait("Quit anyway? (y/N)")
	close(open)
	f.wait(quitWorkDone)
	if v := f.quit().View(); strings.Contains(v, "Quit anyway") {
		t.Errorf("the question stays after the work ended:\n%s", v)
	}
}

// gate holds every request until open is closed, then sends it on.
type gate struct {
	open <-chan struct{}
	next http.RoundTripper
}

func (g gate) RoundTrip(r *http.Request) (*http.Response, error) {
	select {
	case <-g.open:
		return g.next.RoundTrip(r)
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
}

// gatedSession is a profile on a sandbox service (without a chain) whose
// requests wait until the returned channel is closed.
func gatedSession(t *testing.T) (*session.Session, chan struct{}) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	t.Cleanup(srv.Close)
	sb, err := sandbox.New(sandbox.Options{PublicURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	srv.Config.Handler = sb
	fx := embedded.Fixtures(sb.Fixtures())
	open := make(chan struct{})
	s := &session.Session{Name: "gated", TokenIDs: fx.TokenIDs, Requests: session.NewRequestLog(), Now: time.Now, Fixtures: &fx}
	s.API, err = api.New(api.Config{BaseURL: fx.BaseURL, PortalURL: fx.PortalURL, PortalID: fx.PortalID, APIKey: fx.APIKey,
		HTTPClient: &http.Client{Transport: gate{open: open, next: srv.Client().Transport}}, OnExchange: s.Requests.Add})
	if err != nil {
		t.Fatal(err)
	}
	return s, open
}

// TestHeaderNamesTheToken: on the embedded sandbox the header names the
// token by its name and symbol, not its id.
func TestHeaderNamesTheToken(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.wait("token Meridian (MRD)")
	// At 80 columns, with the account's countdown, the symbol alone.
	f.send(tea.WindowSizeMsg{Width: 80, Height: 24}).unlock().wait(" MRD │ 0x")
	if v := f.quit().View(); strings.Contains(v, "token "+shortID(f.s.TokenIDs[0])) {
		t.Errorf("the header still names the token by its id:\n%s", v)
	}
}

package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"allot/api"
	"allot/core/session"
)

// TestStakesAmbiguousPoolName: a --pool name that fits two of the token's
// pools but for case is not guessed at: a usage error (exit 2) on one
// line listing their ids, the service's bytes made inert, and no stakes
// asked for.
func TestStakesAmbiguousPoolName(t *testing.T) {
	t.Parallel()
	const token = "7b1c2d3e-0000-4000-8000-000000000001"
	stakesAsked := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/stakes") {
			stakesAsked++
		}
		w.Write([]byte(`{"isProcessed":true,"result":{"total":2,"items":[` +
			`{"id":"6a0f3b1e-0000-4000-8000-00000000000a","name":"Twin"},` +
			`{"id":"6a0f3b1e\u001b]0;owned\u0007","name":"TWIN"}]}}`))
	}))
	defer srv.Close()
	client, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := &session.Session{Name: "twins", API: client, TokenIDs: []string{token}, Requests: session.NewRequestLog(), StateDir: t.TempDir(), Now: time.Now}

	r := runCLI(t, s, nil, "stakes", "--pool", "twin")
	line, _, _ := strings.Cut(r.stderr, "\n")
	want := `allot: stakes: --pool "twin" names more than one pool of token ` + token + `: pass one's id: 6a0f3b1e-0000-4000-8000-00000000000a, 6a0f3b1e`
	if r.code != ExitUsage || !strings.HasPrefix(line, want) || r.stdout != "" {
		t.Errorf("exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, ExitUsage, want)
	}
	if strings.ContainsAny(r.stderr, "\x1b\x07") {
		t.Errorf("the service's bytes reached the terminal: %q", r.stderr)
	}
	if stakesAsked != 0 {
		t.Errorf("stakes asked for %d times with no one pool", stakesAsked)
	}
}

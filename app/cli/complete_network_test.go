package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"allot/api/sandbox"
	"allot/internal/sanitize"
)

// poolService is a sandbox service whose pools of its first token are
// named names, and a configuration whose one profile uses it.
func poolService(t *testing.T, names []string) (cfg string, environ map[string]string) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{KeystoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	fx := srv.Fixtures()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if strings.HasSuffix(r.URL.Path, "/staking/pools") && rec.Code == http.StatusOK {
			body = renamePools(t, body, names)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		w.Write(body)
	}))
	t.Cleanup(ts.Close)
	cfg = filepath.Join(t.TempDir(), "config.toml")
	text := fmt.Sprintf("[profiles.live]\nbase_url = %q\napi_key_env = \"ALLOT_API_KEY\"\ntokens = [%q]\n", ts.URL, fx.TokenIDs[0])
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, map[string]string{"ALLOT_API_KEY": fx.APIKey}
}

// renamePools answers a page of pools with one pool a name, the first
// pool copied, each with an id of its own.
func renamePools(t *testing.T, body []byte, names []string) []byte {
	var answer map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&answer); err != nil {
		t.Errorf("pools answer: %v", err)
		return body
	}
	page := answer
	if inner, ok := answer["result"].(map[string]any); ok {
		page = inner
	}
	first := page["items"].([]any)[0].(map[string]any)
	var items []any
	for i, name := range names {
		p := map[string]any{}
		for k, v := range first {
			p[k] = v
		}
		p["id"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		p["name"] = name
		items = append(items, p)
	}
	page["items"], page["total"] = items, len(items)
	delete(page, "nextCursor")
	out, _ := json.Marshal(answer)
	return out
}

// TestCompletionDropsHostilePoolNames: a pool name the service sends that
// a shell would take for more than a name (control characters, a
// newline, a tab, a bidirectional override, a C1 control, a name of
// kilobytes) is not offered, nor is a name two pools share; and no more
// than maxCandidates are.
func TestCompletionDropsHostilePoolNames(t *testing.T) {
	completeHome(t)
	names := []string{"Fine pool", "evil\x1b]52;c;eA==\x07", "two\nlines", "tab\tname", "bidi\u202eloop", "c1\u0085next",
		strings.Repeat("x", 300), "Twin", "twin"}
	for i := range 2 * maxCandidates {
		names = append(names, fmt.Sprintf("Pool %03d", i))
	}
	cfg, environ := poolService(t, names)
	got, directive := completeWith(context.Background(), t, environ, "--config", cfg, "stakes", "--pool", "")
	if len(got) != maxCandidates || got[0] != "Fine pool" || got[1] != "Pool 000" || directive != directiveNone {
		t.Errorf("%d candidates, starting %q, directive %s; want %d, Fine pool then Pool 000", len(got), got[:min(len(got), 3)], directive, maxCandidates)
	}
	for _, c := range got {
		if sanitize.Line(c) != c || !utf8.ValidString(c) || len(c) > maxCandidateLen || strings.EqualFold(c, "twin") {
			t.Errorf("offered %q", c)
		}
	}
	if got, _ := completeWith(context.Background(), t, nil, "--config", cfg, "stakes", "--pool", ""); got != nil {
		t.Errorf("without the API key: %q", got)
	}
}

// TestCompletionPoolsAreCancelled: a service that does not answer holds
// completion no longer than its context: cancelled (as Ctrl-C does, or
// the 2 s bound), it offers nothing and exits 0, silently.
func TestCompletionPoolsAreCancelled(t *testing.T) {
	completeHome(t)
	asked := make(chan struct{}, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // the server sees the client leave once the body is read
		select {
		case asked <- struct{}{}:
		default:
		}
		<-r.Context().Done()
	}))
	defer ts.Close()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	text := fmt.Sprintf("[profiles.live]\nbase_url = %q\napi_key = \"k\"\ntokens = [\"db51faa7-2858-5523-b01a-79ecc813ed11\"]\n", ts.URL)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-asked
		cancel()
	}()
	got, directive := completeWith(ctx, t, nil, "--config", cfg, "stake", "--pool", "")
	if got != nil || directive != directiveNone {
		t.Errorf("%q %s, want nothing", got, directive)
	}
}

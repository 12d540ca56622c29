package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/onchain"
	"allot/core/config"
	"allot/core/session"
)

// The benchmarks below run `allot stakes --pool WHALE` beside jq on the
// same body, in the same run:
//
//	go test -run '^$' -bench 'Whale(JSON|CSV)' -count 5 ./app/cli/
//
// ALLOT_BENCH_WHALE_STAKES sizes the whale pool: a comma-separated list
// of sizes, each a sub-benchmark (default 100,000; up to
// sandbox.MaxWhaleStakes; 100000,1000000 for both, where jq takes tens of
// seconds a run at 1M). The jq runs skip where jq is not installed.

// whaleBench is a sandbox served over loopback, a session on it, and the
// whale pool's listing as the service sends it, in a file.
type whaleBench struct {
	s    *session.Session
	pool string
	n    int
	body string // path of the listing's body
}

// whaleSizes are the pool sizes of ALLOT_BENCH_WHALE_STAKES.
func whaleSizes(b *testing.B) []int {
	v := os.Getenv("ALLOT_BENCH_WHALE_STAKES")
	if v == "" {
		return []int{sandbox.WhaleStakes}
	}
	var sizes []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			b.Fatalf("ALLOT_BENCH_WHALE_STAKES=%q: %v", v, err)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// eachWhale runs bench once for each pool size, as a sub-benchmark named
// by the size.
func eachWhale(b *testing.B, bench func(b *testing.B, w *whaleBench)) {
	for _, n := range whaleSizes(b) {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { bench(b, newWhaleBench(b, n)) })
	}
}

func newWhaleBench(b *testing.B, n int) *whaleBench {
	b.Helper()
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	b.Cleanup(srv.Close)
	sb, err := onchain.Start(context.Background(), onchain.Options{
		Sandbox: sandbox.Options{KeystoreDir: b.TempDir(), PublicURL: srv.URL, WhaleStakes: n}, MineInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sb.Close() })
	handler = sb.Server
	fx := sb.Server.Fixtures()
	client, err := api.New(api.Config{BaseURL: srv.URL, PortalURL: srv.URL, PortalID: fx.PortalID,
		APIKey: fx.APIKey, APIKeyHeader: fx.APIKeyHeader, Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	s := &session.Session{
		Name:     "bench",
		Profile:  config.Profile{Name: "bench", BaseURL: srv.URL, PortalURL: srv.URL, PortalID: fx.PortalID, Tokens: fx.TokenIDs},
		API:      client,
		TokenIDs: fx.TokenIDs,
		Requests: session.NewRequestLog(),
		StateDir: b.TempDir(),
		Now:      time.Now,
	}

	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/external/v1/staking/stakes", strings.NewReader(`{"stakingPoolId":"`+fx.BigPoolID+`"}`))
	req.Header.Set(fx.APIKeyHeader, fx.APIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	path := filepath.Join(b.TempDir(), "stakes.json")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(f, resp.Body); err != nil {
		b.Fatal(err)
	}
	return &whaleBench{s: s, pool: fx.BigPoolID, n: n, body: path}
}

// allot runs `allot stakes --pool WHALE -o format` to a writer that keeps
// nothing, fetching the body from the sandbox as a user's run does.
func (w *whaleBench) allot(b *testing.B, format string) {
	out := &countWriter{}
	e := &env{IO: IO{Stdin: strings.NewReader(""), Stdout: out, Stderr: io.Discard, Getenv: func(string) string { return "" }}, sess: w.s}
	if err := run(context.Background(), e, []string{"stakes", "--pool", w.pool, "-o", format}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(out.n)
}

// jq runs jq on the body's file with its output to /dev/null, as
// `jq ... < stakes.json > /dev/null`. (Its peak RSS is not reported: the
// child's counts the forked test process's.)
func (w *whaleBench) jq(b *testing.B, args ...string) {
	jq, err := exec.LookPath("jq")
	if err != nil {
		b.Skip("jq is not installed")
	}
	in, err := os.Open(w.body)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	cmd := exec.Command(jq, args...)
	cmd.Stdin, cmd.Stdout = in, null
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("jq: %v %s", err, stderr.String())
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// BenchmarkWhaleJSON: `allot stakes -o json` against `jq -c .result`.
func BenchmarkWhaleJSON(b *testing.B) {
	eachWhale(b, func(b *testing.B, w *whaleBench) {
		b.Run("allot -o json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w.allot(b, "json")
			}
		})
		b.Run("jq -c .result", func(b *testing.B) {
			for b.Loop() {
				w.jq(b, "-c", ".result")
			}
		})
	})
}

// BenchmarkWhaleCSV: `allot stakes -o csv` against jq's @csv of the same
// columns.
func BenchmarkWhaleCSV(b *testing.B) {
	eachWhale(b, func(b *testing.B, w *whaleBench) {
		b.Run("allot -o csv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w.allot(b, "csv")
			}
		})
		b.Run("jq @csv", func(b *testing.B) {
			for b.Loop() {
				w.jq(b, "-r", `["id","walletAddress","amount","status","createdAt"], (.result.items[] | [.id, .walletAddress, .amount, .status, .createdAt]) | @csv`)
			}
		})
	})
}

package sandbox

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkSeed generates the whole data set: the target is under 300 ms.
func BenchmarkSeed(b *testing.B) {
	for b.Loop() {
		if _, err := Seed(testStart); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderWhaleStakes renders the whale pool's 100,000 stakes, what
// the first listing of it costs.
func BenchmarkRenderWhaleStakes(b *testing.B) {
	w := sharedWorld()
	var n int
	for b.Loop() {
		n = len(w.renderStakes(w.BigPool, -1).json)
	}
	b.SetBytes(int64(n))
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ h http.Header }

func (d discard) Header() http.Header       { return d.h }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}

// BenchmarkServeWhaleStakes serves the whale pool's stakes in process, once
// rendered: what the handler costs per listing.
func BenchmarkServeWhaleStakes(b *testing.B) {
	srv, err := New(Options{World: sharedWorld(), KeystoreDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	body := `{"stakingPoolId":"` + srv.world.BigPool.ID + `"}`
	serve := func() {
		req := httptest.NewRequest("POST", adminPrefix+"staking/stakes", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(DefaultAPIKeyHeader, srv.keys.read)
		srv.ServeHTTP(discard{http.Header{}}, req)
	}
	serve()
	b.SetBytes(int64(len(srv.world.BigPool.listing.items.json)))
	for b.Loop() {
		serve()
	}
}

// BenchmarkWhaleStakesLoopback lists the whale pool's stakes over loopback
// HTTP and reads the whole body, as a client does before decoding it.
func BenchmarkWhaleStakesLoopback(b *testing.B) {
	e := newEnv(b, Options{})
	body := `{"stakingPoolId":"` + e.fx.BigPoolID + `"}`
	fetch := func() int64 {
		req, _ := http.NewRequest("POST", e.url+adminPrefix+"staking/stakes", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(DefaultAPIKeyHeader, e.fx.ReadOnlyAPIKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		n, err := io.Copy(io.Discard, res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("status %d: %v", res.StatusCode, err)
		}
		return n
	}
	b.SetBytes(fetch())
	for b.Loop() {
		fetch()
	}
}

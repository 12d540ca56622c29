package session

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"allot/api/sandbox"
)

// TestPeekProfile: a profile's deployment and token names come from the
// configuration; its pool names from the service, with its API key.
func TestPeekProfile(t *testing.T) {
	srv, err := sandbox.New(sandbox.Options{KeystoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	fx := srv.Fixtures()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	body := "default_profile = \"live\"\n[profiles.live]\nbase_url = \"" + ts.URL + "\"\napi_key_env = \"K\"\nchain_id = 5\ntokens = [\"" + fx.TokenIDs[0] + "\"]\n" +
		"[profiles.live.token_names]\n\"" + fx.TokenIDs[0] + "\" = { name = \"Meridian\", symbol = \"MRD\" }\n" +
		"[profiles.other]\nbase_url = \"https://other.example\"\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return map[string]string{"K": fx.APIKey}[k] }
	p, err := PeekAt(Options{ConfigPath: cfg, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "live" || p.Deployment.BaseURL != ts.URL || p.Deployment.ChainID != 5 {
		t.Errorf("peek %q %+v", p.Name, p.Deployment)
	}
	names, err := p.PoolNames(context.Background(), "mrd")
	w, _ := sandbox.SeedFirst(time.Now(), 1)
	var want []string
	for _, pool := range w.Pools {
		if pool.TokenID == fx.TokenIDs[0] {
			want = append(want, pool.Name)
		}
	}
	if err != nil || len(names) == 0 || !slices.Equal(names, want) {
		t.Errorf("pool names %q (%v), want %q", names, err, want)
	}
	if p, err = PeekAt(Options{ConfigPath: cfg, Profile: "live", Getenv: func(string) string { return "" }}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.PoolNames(context.Background(), ""); err == nil {
		t.Error("pool names without the API key")
	}
	if _, err := PeekAt(Options{ConfigPath: cfg, Profile: "nope", Getenv: getenv}); err == nil {
		t.Error("a profile the configuration does not have")
	}
}

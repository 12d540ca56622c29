package config

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestExampleSandboxKeystore: the example's sandbox profile names the
// keystore that the `allot sandbox` command above it writes
// (--keystore-dir), so Unlock finds the demo wallets there, not in
// ~/.ethereum/keystore, where it found nothing.
func TestExampleSandboxKeystore(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.Profile("sandbox")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`allot sandbox .*--keystore-dir (\S+)`).FindSubmatch(data)
	if m == nil || p.Keystore == "" || p.Keystore != string(m[1]) {
		t.Fatalf("the sandbox profile's keystore %q is not the --keystore-dir the example serves it with (%q)", p.Keystore, m)
	}
}

package session

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const twoProfiles = `default_profile = "alpha"

[profiles.alpha]
base_url = "http://127.0.0.1:1"
api_key_env = "TEST_KEY"
tokens = ["db51faa7-2858-5523-b01a-79ecc813ed11"]

[profiles.beta]
base_url = "http://127.0.0.1:2"
api_key_env = "TEST_KEY"
tokens = ["028de82e-10de-5e3f-80c3-39636e464a0a"]
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSwitchOpensTheOtherProfiles(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	getenv := func(k string) string {
		if k == "TEST_KEY" {
			return "k-123"
		}
		return os.Getenv(k)
	}
	var notices []string
	sw := NewSwitch(Options{ConfigPath: writeConfig(t, twoProfiles), Getenv: getenv, ForceSandbox: true,
		Notice: func(n string) { notices = append(notices, n) }})
	if sw.Err != nil || !slices.Equal(sw.Names, []string{"alpha", "beta"}) {
		t.Fatalf("names %v, err %v", sw.Names, sw.Err)
	}
	s, err := sw.Open("beta")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Name != "beta" || s.Sandbox || s.TokenIDs[0] != "028de82e-10de-5e3f-80c3-39636e464a0a" {
		t.Fatalf("opened %q (sandbox %v), tokens %v", s.Name, s.Sandbox, s.TokenIDs)
	}
	if len(notices) != 0 {
		t.Errorf("opening printed %v: the dashboard owns the terminal", notices)
	}
	if _, err := sw.Open("gamma"); err == nil || !strings.Contains(err.Error(), `no profile "gamma"`) {
		t.Fatalf("gamma: %v", err)
	}
}

func TestSwitchWithoutUsableConfiguration(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no default file
	if sw := NewSwitch(Options{Getenv: os.Getenv}); sw.Err != nil || len(sw.Names) != 0 || sw.Open != nil {
		t.Fatalf("no configuration: %+v", sw)
	}
	sw := NewSwitch(Options{ConfigPath: writeConfig(t, "default_profile = 3\n"), Getenv: os.Getenv})
	if sw.Err == nil || len(sw.Names) != 0 {
		t.Fatalf("a broken configuration: %+v", sw)
	}
}

package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const valid = `
default_profile = "prod"

[profiles.prod]
base_url = "https://api.example.com"
portal_url = "https://portal.example.com"
portal_id = "acme"
api_key_env = "ACME_KEY"
tokens = ["7c9e6679-7425-40de-944b-e07fc1f90ae7"]
timeout = "5s"
rpc_url = "https://rpc.example.com"
chain_id = 1
keystore = "~/keys"

[profiles.staging]
base_url = "https://staging.example.com"
api_key = "inline-secret"
api_key_header = "x-vendor-token"
`

func TestParse(t *testing.T) {
	cfg, err := Parse([]byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	prod, err := cfg.Profile("")
	if err != nil {
		t.Fatal(err)
	}
	if prod.Name != "prod" || prod.Timeout.Duration != 5*time.Second || prod.APIKeyHeader != DefaultAPIKeyHeader {
		t.Errorf("prod = %+v", prod)
	}
	if prod.SigninDomain != "portal.example.com" {
		t.Errorf("signin domain defaults to the portal host, got %q", prod.SigninDomain)
	}
	staging, _ := cfg.Profile("staging")
	if staging.PortalURL != staging.BaseURL || staging.Timeout.Duration != DefaultTimeout || staging.APIKeyHeader != "x-vendor-token" {
		t.Errorf("staging defaults = %+v", staging)
	}
	if _, err := cfg.Profile("nope"); err == nil || !strings.Contains(err.Error(), "prod, staging") {
		t.Errorf("unknown profile error = %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, toml, want string
	}{
		{"unknown keys named", valid + "\n[profiles.prod.extra]\nx = 1\n", "unknown keys: profiles.prod.extra"},
		{"misspelt key", "[profiles.a]\nbase_url = \"https://a\"\nbase_ulr = \"x\"\n", "unknown keys: profiles.a.base_ulr"},
		{"no profiles", "default_profile = \"a\"\n", "no [profiles.NAME] table"},
		{"bad url", "[profiles.a]\nbase_url = \"ftp://a\"\n", `base_url: "ftp://a" is not an http(s) URL`},
		{"missing url", "[profiles.a]\ntimeout = \"1s\"\n", "base_url: missing"},
		{"bad token", "[profiles.a]\nbase_url = \"https://a\"\ntokens = [\"x\"]\n", `tokens[0]: "x" is not a UUID`},
		{"bad duration", "[profiles.a]\nbase_url = \"https://a\"\ntimeout = \"soon\"\n", "is not a duration"},
		{"both keys", "[profiles.a]\nbase_url = \"https://a\"\napi_key = \"k\"\napi_key_env = \"E\"\n", "both set"},
		{"dangling default", "default_profile = \"b\"\n[profiles.a]\nbase_url = \"https://a\"\n", `default_profile "b" names no profile`},
		{"syntax", "[profiles.a\n", "expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestProfileChoiceNeedsDefaultWhenSeveral(t *testing.T) {
	cfg, err := Parse([]byte(strings.Replace(valid, `default_profile = "prod"`, "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.Profile(""); err == nil {
		t.Error("ambiguous profile chosen")
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if _, err := Load(""); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing default file: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("missing explicit file: %v", err)
	}
	path := filepath.Join(dir, "allot", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(valid), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Path != path {
		t.Errorf("Path = %q", cfg.Path)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], `"staging" holds an inline api_key`) {
		t.Errorf("warnings = %q", cfg.Warnings)
	}
	if strings.Contains(strings.Join(cfg.Warnings, ""), "inline-secret") {
		t.Error("warning shows the key")
	}
	os.Chmod(path, 0o600)
	if cfg, _ := Load(""); len(cfg.Warnings) != 0 {
		t.Errorf("private file warned: %q", cfg.Warnings)
	}
}

func TestResolveAPIKey(t *testing.T) {
	env := map[string]string{"ACME_KEY": "from-env"}
	p := Profile{Name: "prod", APIKeyEnv: "ACME_KEY"}
	if key, err := p.ResolveAPIKey(func(k string) string { return env[k] }); err != nil || key != "from-env" {
		t.Errorf("env key = %q, %v", key, err)
	}
	p.APIKeyEnv = "MISSING"
	if _, err := p.ResolveAPIKey(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "MISSING") {
		t.Errorf("missing env: %v", err)
	}
}

func TestKeystoreDir(t *testing.T) {
	home, _ := os.UserHomeDir()
	if dir, _ := (Profile{}).KeystoreDir(); dir != filepath.Join(home, ".ethereum", "keystore") {
		t.Errorf("default keystore %q", dir)
	}
	if dir, _ := (Profile{Keystore: "~/k"}).KeystoreDir(); dir != filepath.Join(home, "k") {
		t.Errorf("tilde keystore %q", dir)
	}
	if dir, _ := (Profile{Keystore: "/abs"}).KeystoreDir(); dir != "/abs" {
		t.Errorf("absolute keystore %q", dir)
	}
}

func TestExampleConfigParses(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data); err != nil {
		t.Fatalf("config.example.toml: %v", err)
	}
}

// TestLoadRefusesHostileFiles: a device, a FIFO and an oversized file are
// refused before they are read whole, and none of them hangs.
func TestLoadRefusesHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, append([]byte(valid), make([]byte, MaxSize)...), 0o600)
	for path, want := range map[string]string{
		"/dev/zero": "not a regular file",
		fifo:        "not a regular file",
		dir:         "not a regular file",
		big:         "more than a configuration can be",
	} {
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) = %v, want %q", path, err, want)
		}
	}
}

// TestParseRefusesDeepNesting: nesting is counted before the TOML parser,
// which takes seconds and gigabytes on a few kilobytes of nested inline
// tables, sees the text; brackets in strings and comments do not count.
func TestParseRefusesDeepNesting(t *testing.T) {
	deep := valid + "\n[profiles.x]\nbase_url = \"https://x\"\nz = " + strings.Repeat("{a=", MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1) + "\n"
	if _, err := Parse([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep inline tables: %v", err)
	}
	many := valid + "\n[profiles.x]\nbase_url = \"https://x\"\nz = [" + strings.Repeat("{a=1},", MaxNested) + "]\n"
	if _, err := Parse([]byte(many)); err == nil || !strings.Contains(err.Error(), "more than 4096") {
		t.Errorf("many inline tables: %v", err)
	}
	for text, want := range map[string]int{
		`a = [[1], [2]]`:                          2,
		`[[x]]`:                                   2,
		`a = "[[[[" # [[[[[[[[[`:                  0,
		`a = '[[[\'`:                              0,
		`a = """ "" \""" [[[[ """`:                0,
		"a = '''\n[[[[\n'''''":                    0,
		"a = \"[[ unterminated\nb = [1]":          1,
		`a = { b = [ "}]", { c = '{' } ] } # {{{`: 3,
	} {
		if got, _ := nesting([]byte(text)); got != want {
			t.Errorf("nesting(%q) = %d, want %d", text, got, want)
		}
	}
}

func TestUnknownKeysListIsShort(t *testing.T) {
	text := valid + "\n[profiles.x]\nbase_url = \"https://x\"\n"
	for i := range 100 {
		text += fmt.Sprintf("k%d = 1\n", i)
	}
	_, err := Parse([]byte(text))
	if err == nil || !strings.Contains(err.Error(), "and 92 more") || len(err.Error()) > 300 {
		t.Errorf("err = %v", err)
	}
}

// A URL's password never reaches an error: a bad base_url is shown
// redacted, or not at all when it does not parse.
func TestURLErrorsHideThePassword(t *testing.T) {
	for _, u := range []string{"ftp://ops:hunter2@example.com", "http://ops:hunter2@exa mple.com/%zz"} {
		_, err := Parse([]byte("[profiles.p]\nbase_url = \"" + u + "\"\napi_key_env = \"K\"\n"))
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("base_url %s: error %v", u, err)
		}
	}
}

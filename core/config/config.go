// Package config reads allot's TOML configuration: named profiles, each
// describing one deployment of the token distribution service.
package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/google/uuid"

	"allot/internal/regularfile"
	"allot/internal/sanitize"
	"allot/wallet/siwe"
)

// DefaultTimeout is the per-request timeout of a profile that sets none.
const DefaultTimeout = 15 * time.Second

// DefaultAPIKeyHeader is the header of docs/deployment.md D1.
const DefaultAPIKeyHeader = "x-service-api-token"

// Config is a whole configuration file.
type Config struct {
	DefaultProfile string             `toml:"default_profile"`
	Profiles       map[string]Profile `toml:"profiles"`
	// Theme is the dashboard's colours: "auto" (the default) asks the
	// terminal its background, "light" and "dark" say it (ALLOT_THEME
	// overrides it; NO_COLOR turns colour off whatever it says).
	Theme string `toml:"theme"`

	// Path is the file the configuration was read from.
	Path string `toml:"-"`
	// Warnings are problems worth telling the user that do not stop allot,
	// such as an inline API key in a file others can read.
	Warnings []string `toml:"-"`
}

// Profile is one deployment.
type Profile struct {
	BaseURL      string   `toml:"base_url"`
	PortalURL    string   `toml:"portal_url"`
	PortalID     string   `toml:"portal_id"`
	APIKey       string   `toml:"api_key"`
	APIKeyEnv    string   `toml:"api_key_env"`
	APIKeyHeader string   `toml:"api_key_header"`
	Tokens       []string `toml:"tokens"`
	Timeout      Duration `toml:"timeout"`
	RPCURL       string   `toml:"rpc_url"`
	ChainID      uint64   `toml:"chain_id"`
	Keystore     string   `toml:"keystore"`
	SigninDomain string   `toml:"signin_domain"`
	// Pins and MaxNativeFee bound what a claim or a stake may sign (see
	// SigningPins).
	Pins         Pins   `toml:"pins"`
	MaxNativeFee string `toml:"max_native_fee"`
	// MaxGasFee bounds what a transaction's gas may cost (see GasCeiling).
	MaxGasFee string `toml:"max_gas_fee"`
	// TokenNames name the tokens for people, by token id (see TokenName).
	TokenNames map[string]TokenName `toml:"token_names"`
	// Refresh is how often the dashboard reads its data again.
	Refresh Refresh `toml:"refresh"`
	// Allocations are allocation ids the user follows in this profile,
	// beside those followed from the dashboard: `allot upcoming`, `allot
	// watch` and the Upcoming screen list them.
	Allocations []string `toml:"allocations"`
	// ReadOnly makes every signature, transaction and write of the
	// service impossible with this profile (support staff look, and
	// cannot act): `--read-only` does the same for one run.
	ReadOnly bool `toml:"read_only"`
	// ServiceClaimsOnly, when true, signs only the claims the service
	// builds: a claim the service refuses to build for a sender is not
	// built by allot from the proof instead.
	ServiceClaimsOnly bool `toml:"service_claims_only"`
	// Safes are the Safes the profile works with (docs/custody.md): the
	// dashboard's accounts and `allot safe list` read each from the chain.
	// `allot safe add` and `allot safe remove` edit the list.
	Safes []string `toml:"safes"`

	// Name is the profile's key in the file.
	Name string `toml:"-"`
}

// MaxAllocations bounds a profile's allocations: each is read from the
// service and the chain on every check.
const MaxAllocations = 100

// Duration is a time.Duration written as a Go duration string ("15s").
type Duration struct{ time.Duration }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(text []byte) error {
	v, err := time.ParseDuration(string(text))
	if err != nil {
		return fmt.Errorf("%q is not a duration such as \"15s\"", text)
	}
	d.Duration = v
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// ErrNotFound is returned by Load when no file exists at the default path.
// The caller then runs on the embedded sandbox.
var ErrNotFound = errors.New("no configuration file")

// DefaultPath returns $XDG_CONFIG_HOME/allot/config.toml, falling back to
// ~/.config as the XDG base directory specification says.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the configuration directory: %w", err)
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "allot", "config.toml"), nil
}

// Load reads the file at path, or the default path when path is empty. A
// missing default file is ErrNotFound; a missing explicit one is an error.
func Load(path string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		var err error
		if path, err = DefaultPath(); err != nil {
			return nil, err
		}
	}
	data, info, err := readFile(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("read config: %w", err)
	}
	cfg, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	cfg.Path = path
	if info.Mode().Perm()&0o044 != 0 {
		for _, name := range cfg.ProfileNames() {
			if cfg.Profiles[name].APIKey != "" {
				cfg.Warnings = append(cfg.Warnings, fmt.Sprintf(
					"%s is readable by other users and profile %q holds an inline api_key: run chmod 600 %s, or use api_key_env",
					path, name, path))
			}
		}
	}
	return cfg, nil
}

// Bounds on a configuration file, checked before it is parsed: a real one
// is a few kilobytes and nests two levels, while the TOML parser takes
// seconds and gigabytes on a few kilobytes of nested inline tables.
const (
	MaxSize   = 1 << 20
	MaxDepth  = 8    // nested arrays and inline tables
	MaxNested = 4096 // arrays, inline tables and table headers in all
)

// readFile reads a regular file of at most MaxSize bytes. A device
// (--config /dev/zero) or a FIFO is refused before it is read.
func readFile(path string) ([]byte, fs.FileInfo, error) {
	f, info, err := regularfile.Open(path)
	if errors.Is(err, regularfile.ErrNotRegular) {
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if info.Size() > MaxSize {
		return nil, nil, fmt.Errorf("%s is %d bytes, more than a configuration can be (%d)", path, info.Size(), MaxSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > MaxSize {
		return nil, nil, fmt.Errorf("%s is more than %d bytes, more than a configuration can be", path, MaxSize)
	}
	return data, info, nil
}

// Parse decodes and checks a configuration. Unknown keys are errors, named
// in full, because a misspelt key silently ignored is a wrong deployment.
func Parse(data []byte) (*Config, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%d bytes, more than a configuration can be (%d)", len(data), MaxSize)
	}
	switch d, n := nesting(data); {
	case d > MaxDepth:
		return nil, fmt.Errorf("arrays or inline tables nested %d deep, more than %d", d, MaxDepth)
	case n > MaxNested:
		return nil, fmt.Errorf("more than %d arrays, inline tables and table headers", MaxNested)
	}
	var cfg Config
	md, err := toml.Decode(string(data), &cfg)
	if err != nil {
		return nil, err
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		// A few names are enough to find the mistake; a hostile file
		// must not make a line of megabytes.
		var keys []string
		for _, k := range undecoded[:min(len(undecoded), 8)] {
			keys = append(keys, k.String())
		}
		if more := len(undecoded) - len(keys); more > 0 {
			keys = append(keys, fmt.Sprintf("and %d more", more))
		}
		return nil, fmt.Errorf("unknown keys: %s", strings.Join(keys, ", "))
	}
	if len(cfg.Profiles) == 0 {
		return nil, errors.New("no [profiles.NAME] table")
	}
	var problems []error
	for _, name := range cfg.ProfileNames() {
		p := cfg.Profiles[name]
		p.Name = name
		if p.APIKeyHeader == "" {
			p.APIKeyHeader = DefaultAPIKeyHeader
		}
		if p.Timeout.Duration == 0 {
			p.Timeout.Duration = DefaultTimeout
		}
		if p.PortalURL == "" {
			p.PortalURL = p.BaseURL
		}
		if p.SigninDomain == "" {
			p.SigninDomain, _ = siwe.DomainOf(p.PortalURL)
		}
		err := errors.Join(p.checkTokenNames(), p.validate())
		cfg.Profiles[name] = p
		if err != nil {
			problems = append(problems, fmt.Errorf("profile %q: %w", name, err))
		}
	}
	if err := CheckTheme(cfg.Theme); err != nil {
		problems = append(problems, fmt.Errorf("theme: %w", err))
	}
	if cfg.DefaultProfile != "" {
		if _, ok := cfg.Profiles[cfg.DefaultProfile]; !ok {
			problems = append(problems, fmt.Errorf("default_profile %q names no profile", cfg.DefaultProfile))
		}
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// Themes are the values theme takes; "" is "auto".
var Themes = []string{"auto", "light", "dark"}

// CheckTheme refuses a theme that is not one of Themes.
func CheckTheme(theme string) error {
	if theme == "" || slices.Contains(Themes, theme) {
		return nil
	}
	return fmt.Errorf("%q is not a theme: want %s", sanitize.Truncate(theme, 40), strings.Join(Themes, ", "))
}

func (p Profile) validate() error {
	var problems []error
	for key, v := range map[string]string{"base_url": p.BaseURL, "portal_url": p.PortalURL, "rpc_url": p.RPCURL} {
		if v == "" && key == "rpc_url" {
			continue
		}
		if err := checkURL(v); err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", key, err))
		}
	}
	if p.APIKey != "" && p.APIKeyEnv != "" {
		problems = append(problems, errors.New("api_key and api_key_env are both set: keep one"))
	}
	for i, id := range p.Tokens {
		if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
			problems = append(problems, fmt.Errorf("tokens[%d]: %q is not a UUID", i, id))
		}
	}
	if len(p.Allocations) > MaxAllocations {
		problems = append(problems, fmt.Errorf("allocations: %d ids, more than %d", len(p.Allocations), MaxAllocations))
	}
	for i, id := range p.Allocations[:min(len(p.Allocations), MaxAllocations)] {
		if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
			problems = append(problems, fmt.Errorf("allocations[%d]: %q is not a UUID", i, id))
		}
	}
	if err := checkSafes(p.Safes); err != nil {
		problems = append(problems, err)
	}
	if p.Timeout.Duration < 0 {
		problems = append(problems, errors.New("timeout must be positive"))
	}
	if strings.ContainsAny(p.APIKeyHeader, " :\r\n") {
		problems = append(problems, fmt.Errorf("api_key_header %q is not a header name", p.APIKeyHeader))
	}
	if _, err := p.SigningPins(); err != nil {
		problems = append(problems, err)
	}
	if _, err := p.GasCeiling(); err != nil {
		problems = append(problems, err)
	}
	if err := p.checkSigninDomain(); err != nil {
		problems = append(problems, err)
	}
	return errors.Join(problems...)
}

// nesting is how deep the arrays and inline tables of a TOML text nest
// (table headers count: [a] 1, [[a]] 2) and how many brackets and braces
// open. It skips comments and the four kinds of strings as TOML does, so a
// bracket in a string does not count and none outside one is missed.
func nesting(data []byte) (deepest, opened int) {
	d := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '[', '{':
			d++
			opened++
			deepest = max(deepest, d)
		case ']', '}':
			d = max(d-1, 0)
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipString(data, i)
		}
	}
	return deepest, opened
}

// skipString returns the index of the last byte of the string that starts
// at data[i]: basic or literal, one line or multi-line. An unterminated
// one-line string ends at the end of its line, where the parser stops.
func skipString(data []byte, i int) int {
	q := data[i]
	if i+2 < len(data) && data[i+1] == q && data[i+2] == q {
		// Multi-line: ends at the first unescaped triple quote (up to
		// two more quotes may belong to the content).
		for j := i + 3; j < len(data); j++ {
			if q == '"' && data[j] == '\\' {
				j++
				continue
			}
			if j+2 < len(data) && data[j] == q && data[j+1] == q && data[j+2] == q {
				for j+3 < len(data) && data[j+3] == q {
					j++
				}
				return j + 2
			}
		}
		return len(data)
	}
	for j := i + 1; j < len(data); j++ {
		switch {
		case data[j] == '\n':
			return j
		case q == '"' && data[j] == '\\':
			j++
		case data[j] == q:
			return j
		}
	}
	return len(data)
}

func checkURL(v string) error {
	if v == "" {
		return errors.New("missing")
	}
	// The value may hold a password (user:pass@host): an error shows it
	// redacted, or not at all when it does not even parse.
	u, err := url.Parse(v)
	switch {
	case err != nil:
		return errors.New("is not a URL")
	case (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("%q is not an http(s) URL", sanitize.Truncate(u.Redacted(), 120))
	}
	return nil
}

// ProfileNames returns the profile names in order.
func (c *Config) ProfileNames() []string {
	names := make([]string, 0, len(c.Profiles))
	for name := range c.Profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Profile returns the named profile, or the default one when name is empty:
// default_profile, else the only profile there is.
func (c *Config) Profile(name string) (Profile, error) {
	if name == "" {
		name = c.DefaultProfile
	}
	if name == "" {
		if len(c.Profiles) != 1 {
			return Profile{}, fmt.Errorf("%d profiles and no default_profile: choose one with --profile (%s)", len(c.Profiles), strings.Join(c.ProfileNames(), ", "))
		}
		name = c.ProfileNames()[0]
	}
	p, ok := c.Profiles[name]
	if !ok {
		return Profile{}, fmt.Errorf("no profile %q (have: %s)", name, strings.Join(c.ProfileNames(), ", "))
	}
	return p, nil
}

// ResolveAPIKey returns the profile's API key: inline, or read from the
// environment variable it names. The key itself never appears in an error.
func (p Profile) ResolveAPIKey(getenv func(string) string) (string, error) {
	if p.APIKeyEnv != "" {
		key := getenv(p.APIKeyEnv)
		if key == "" {
			return "", fmt.Errorf("profile %q: environment variable %s (api_key_env) is empty", p.Name, p.APIKeyEnv)
		}
		return key, nil
	}
	return p.APIKey, nil
}

// KeystoreDir returns the profile's keystore, with a leading ~ expanded, or
// go-ethereum's default ~/.ethereum/keystore.
func (p Profile) KeystoreDir() (string, error) {
	dir := p.Keystore
	if dir == "" {
		dir = "~/.ethereum/keystore"
	}
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/') {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("expand keystore path: %w", err)
		}
		dir = filepath.Join(home, rest)
	}
	return dir, nil
}

// StateDir returns $XDG_STATE_HOME/allot (default ~/.local/state/allot),
// where the journal and remembered lookups live.
func StateDir() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the state directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "allot"), nil
}

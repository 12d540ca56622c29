package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSafesParse: a profile's safes are addresses, checksummed or in one
// case, each once, at most MaxSafes; each problem is named by its index.
func TestSafesParse(t *testing.T) {
	profile := func(safes string) string {
		return "[profiles.team]\nbase_url = \"https://api.example.com\"\nsafes = " + safes + "\n"
	}
	many := make([]string, MaxSafes+1)
	for i := range many {
		many[i] = fmt.Sprintf("%q", fmt.Sprintf("0x%040x", i+1))
	}
	for _, tc := range []struct {
		name, safes, want string
	}{
		{"checksummed and lowercase", `["` + pinA.Hex() + `", "` + strings.ToLower(pinB.Hex()) + `"]`, ""},
		{"not hex", `["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeZ"]`, "safes[0]: \"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeZ\" is not a 0x address"},
		{"too short", `["0x5aAeb6"]`, `safes[0]: "0x5aAeb6" is not a 0x address`},
		{"no 0x", `["005aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"]`, "safes[0]: \"005aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\" is not a 0x address"},
		{"a wrong checksum", `["0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"]`, "wrong EIP-55 checksum: " + pinA.Hex() + " is the checksummed address"},
		{"the same Safe twice, in two cases", `["` + pinA.Hex() + `", "` + pinB.Hex() + `", "` + strings.ToLower(pinA.Hex()) + `"]`, "safes[2]: " + pinA.Hex() + " is safes[0] again"},
		{"too many", "[" + strings.Join(many, ", ") + "]", fmt.Sprintf("safes: %d addresses, more than %d", MaxSafes+1, MaxSafes)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse([]byte(profile(tc.safes)))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				got := cfg.Profiles["team"].SafeAddresses()
				if len(got) != 2 || got[0] != pinA || got[1] != pinB {
					t.Errorf("safes %v", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestEditSafes adds and removes Safes in files written by hand: every
// other byte stays, a Safe listed already is not listed twice, and one
// not listed cannot be removed.
func TestEditSafes(t *testing.T) {
	const head = "# my profiles\n[profiles.team]   # the treasury\nbase_url = \"https://api.example.com\" # API\n"
	const tail = "\n# the pins\n[profiles.team.pins]\nvesters = []\n"
	for _, tc := range []struct {
		name, src, want string
		remove          bool
	}{
		{"no safes yet: the key goes at the end of the profile's own section",
			head + tail, head + "safes = [\"" + pinA.Hex() + "\"]\n" + tail, false},
		{"a list across lines, with a comment",
			head + "safes = [\n  \"" + pinB.Hex() + "\",  # ops\n]\n" + tail,
			head + "safes = [\n  \"" + pinB.Hex() + "\",  # ops\n  \"" + pinA.Hex() + "\",\n]\n" + tail, false},
		{"listed already, in lowercase: nothing changes",
			head + "safes = [\"" + strings.ToLower(pinA.Hex()) + "\"]\n" + tail,
			head + "safes = [\"" + strings.ToLower(pinA.Hex()) + "\"]\n" + tail, false},
		{"removed, its comment with it",
			head + "safes = [\n  \"" + pinA.Hex() + "\",  # the old one\n  \"" + pinB.Hex() + "\",\n]\n" + tail,
			head + "safes = [\n  \"" + pinB.Hex() + "\",\n]\n" + tail, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EditSafes([]byte(tc.src), "team", pinA, tc.remove)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
	if _, err := EditSafes([]byte(head), "team", pinA, true); err == nil || !strings.Contains(err.Error(), "does not list this Safe") {
		t.Errorf("removing a Safe not listed: %v", err)
	}
	if _, err := EditSafes([]byte(head), "other", pinA, false); err == nil || !strings.Contains(err.Error(), `no profile "other"`) {
		t.Errorf("a profile not in the file: %v", err)
	}
}

// TestEditSafesFile: the file keeps its mode and CRLF line ends, and says
// what it lists when read back.
func TestEditSafesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "[profiles.team]\r\nbase_url = \"https://api.example.com\"\r\n"
	if err := os.WriteFile(path, []byte(src), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := EditSafesFile(path, "team", pinA, false); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != src+"safes = [\""+pinA.Hex()+"\"]\r\n" {
		t.Errorf("the file: %v\n%q", err, data)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v: want 0640 kept", info.Mode().Perm(), err)
	}
	cfg, err := Load(path)
	if err != nil || !cfg.Profiles["team"].ListsSafe(pinA) {
		t.Errorf("read back: %v", err)
	}
}

package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
)

var (
	pinA    = common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	pinB    = common.HexToAddress("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
	hashOne = common.HexToHash("0x1111111111111111111111111111111111111111111111111111111111111111")
	hashTwo = common.HexToHash("0x2222222222222222222222222222222222222222222222222222222222222222")
)

// TestEditPins edits the pins of files written as people write them; each
// result must be exactly the text wanted (every other byte kept) and
// decode to the pins wanted.
func TestEditPins(t *testing.T) {
	const head = "# my profiles\ndefault_profile = \"prod\"\n\n[profiles.prod]   # the real one\nbase_url = \"https://api.example.com\" # API\n"
	for _, tc := range []struct {
		name string
		src  string
		edit PinEdit
		want string
	}{
		{
			name: "no pins table: one is added after the profile's sections, before the next profile",
			src:  head + "\n[profiles.prod.token_names]\n\"7c9e6679-7425-40de-944b-e07fc1f90ae7\" = { name = \"Acme\" }\n\n# the other\n[profiles.dev]\nbase_url = \"http://localhost:1\"\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, CodeHash: hashOne},
			want: head + "\n[profiles.prod.token_names]\n\"7c9e6679-7425-40de-944b-e07fc1f90ae7\" = { name = \"Acme\" }\n" +
				"\n[profiles.prod.pins]\nvesters = [\"" + pinA.Hex() + "\"]\n" +
				"\n[profiles.prod.pins.code_hashes]\n\"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\"\n" +
				"\n# the other\n[profiles.dev]\nbase_url = \"http://localhost:1\"\n",
		},
		{
			name: "an array across lines, with comments after its values and no trailing comma",
			src: head + "[profiles.prod.pins]\nvesters = [\n  \"" + pinB.Hex() + "\"  # the old one\n]   # checked 2026-01\nstaking = []\n" +
				"[profiles.prod.pins.code_hashes]\n\"" + strings.ToLower(pinB.Hex()) + "\" = \"" + hashTwo.Hex() + "\" # at pin\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, CodeHash: hashOne},
			want: head + "[profiles.prod.pins]\nvesters = [\n  \"" + pinB.Hex() + "\",  # the old one\n  \"" + pinA.Hex() + "\",\n]   # checked 2026-01\nstaking = []\n" +
				"[profiles.prod.pins.code_hashes]\n\"" + strings.ToLower(pinB.Hex()) + "\" = \"" + hashTwo.Hex() + "\" # at pin\n\"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\"\n",
		},
		{
			name: "an empty array on one line",
			src:  head + "[profiles.prod.pins]\nstaking = [] # none yet\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: pinA, CodeHash: hashOne},
			want: head + "[profiles.prod.pins]\nstaking = [\"" + pinA.Hex() + "\"] # none yet\n" +
				"\n[profiles.prod.pins.code_hashes]\n\"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\"\n",
		},
		{
			name: "an inline pins table",
			src:  head + "pins = { tokens = [\"" + pinB.Hex() + "\"], code_hashes = { \"" + pinB.Hex() + "\" = \"" + hashTwo.Hex() + "\" } } # inline\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinToken, Address: pinA, CodeHash: hashOne},
			want: head + "pins = { tokens = [\"" + pinB.Hex() + "\", \"" + pinA.Hex() + "\"], code_hashes = { \"" + pinB.Hex() + "\" = \"" + hashTwo.Hex() + "\", \"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\" } } # inline\n",
		},
		{
			name: "dotted keys in the profile's table",
			src:  head + "pins.vesters = [\"" + pinB.Hex() + "\"] # dotted\ntimeout = \"5s\"\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinHandler, Address: pinA, CodeHash: hashOne},
			want: head + "pins.vesters = [\"" + pinB.Hex() + "\"] # dotted\npins.handlers = [\"" + pinA.Hex() + "\"]\ntimeout = \"5s\"\n" +
				"\n[profiles.prod.pins.code_hashes]\n\"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\"\n",
		},
		{
			name: "pinned already: the code hash is recorded, the list left as it is",
			src:  head + "[profiles.prod.pins]\nvesters = [\"" + strings.ToLower(pinA.Hex()) + "\"]\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, CodeHash: hashOne},
			want: head + "[profiles.prod.pins]\nvesters = [\"" + strings.ToLower(pinA.Hex()) + "\"]\n" +
				"\n[profiles.prod.pins.code_hashes]\n\"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\"\n",
		},
		{
			name: "a changed code hash is replaced in place",
			src:  head + "[profiles.prod.pins]\nvesters = [\"" + pinA.Hex() + "\"]\ncode_hashes = { \"" + pinA.Hex() + "\" = \"" + hashTwo.Hex() + "\" }\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, CodeHash: hashOne},
			want: head + "[profiles.prod.pins]\nvesters = [\"" + pinA.Hex() + "\"]\ncode_hashes = { \"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\" }\n",
		},
		{
			name: "removal of an element alone on its line takes its line and comment",
			src: head + "[profiles.prod.pins]\nvesters = [\n  \"" + pinA.Hex() + "\", # going\n  \"" + pinB.Hex() + "\", # staying\n]\n" +
				"[profiles.prod.pins.code_hashes]\n\"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\" # A\n\"" + pinB.Hex() + "\" = \"" + hashTwo.Hex() + "\"\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, Remove: true},
			want: head + "[profiles.prod.pins]\nvesters = [\n  \"" + pinB.Hex() + "\", # staying\n]\n" +
				"[profiles.prod.pins.code_hashes]\n\"" + pinB.Hex() + "\" = \"" + hashTwo.Hex() + "\"\n",
		},
		{
			name: "removal of the last element on one line; the hash stays while another list pins it",
			src:  head + "[profiles.prod.pins]\nvesters = [\"" + pinB.Hex() + "\", \"" + pinA.Hex() + "\"] # two\ntokens = [\"" + pinA.Hex() + "\"]\ncode_hashes = { \"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\" }\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, Remove: true},
			want: head + "[profiles.prod.pins]\nvesters = [\"" + pinB.Hex() + "\"] # two\ntokens = [\"" + pinA.Hex() + "\"]\ncode_hashes = { \"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\" }\n",
		},
		{
			name: "removal from an inline code_hashes table",
			src:  head + "[profiles.prod.pins]\nstaking = [\"" + pinA.Hex() + "\"]\ncode_hashes = { \"" + pinB.Hex() + "\" = \"" + hashTwo.Hex() + "\", \"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\" }\n",
			edit: PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: pinA, Remove: true},
			want: head + "[profiles.prod.pins]\nstaking = []\ncode_hashes = { \"" + pinB.Hex() + "\" = \"" + hashTwo.Hex() + "\" }\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse([]byte(tc.src)); err != nil {
				t.Fatalf("the test's file does not parse: %v", err)
			}
			got, err := EditPins([]byte(tc.src), tc.edit)
			if err != nil {
				t.Fatalf("EditPins: %v", err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			cfg, err := Parse(got)
			if err != nil {
				t.Fatal(err)
			}
			pins, err := cfg.Profiles["prod"].SigningPins()
			if err != nil {
				t.Fatal(err)
			}
			if pinned := pins.Pinned(tc.edit.Kind, tc.edit.Address); pinned == tc.edit.Remove {
				t.Errorf("pinned %v after the edit %+v", pinned, tc.edit)
			}
			if !tc.edit.Remove && pins.CodeHashes[tc.edit.Address] != tc.edit.CodeHash {
				t.Errorf("code hash %s, want %s", pins.CodeHashes[tc.edit.Address].Hex(), tc.edit.CodeHash.Hex())
			}
		})
	}
}

func TestEditPinsRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		edit      PinEdit
		want      string
	}{
		{"no such profile", "[profiles.prod]\nbase_url = \"https://a.example\"\n", PinEdit{Profile: "dev", Kind: wallet.PinVester, Address: pinA}, `no profile "dev"`},
		{"an inline profile", "[profiles]\nprod = { base_url = \"https://a.example\" }\n", PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA}, "add it by hand"},
		{"removing what is not pinned", "[profiles.prod]\nbase_url = \"https://a.example\"\n", PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, Remove: true}, "is not pinned as vesters"},
		{"an unknown kind", "[profiles.prod]\nbase_url = \"https://a.example\"\n", PinEdit{Profile: "prod", Kind: "pool", Address: pinA}, `no kind of pin "pool"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := EditPins([]byte(tc.src), tc.edit); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("EditPins = %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestEditPinsFile: the file is replaced whole, its mode kept, and a refused
// edit leaves it untouched.
func TestEditPinsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	src := "[profiles.prod] # keep me\nbase_url = \"https://a.example\"\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := EditPinsFile(link, PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: pinB, CodeHash: hashTwo}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), src) || !strings.Contains(string(data), pinB.Hex()) {
		t.Fatalf("after the edit: %q, %v", data, err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v: want 0644, as the user made it", info.Mode().Perm(), err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", info.Mode(), err)
	}
	before := string(data)
	if err := EditPinsFile(path, PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, Remove: true}); err == nil {
		t.Fatal("removed a pin that is not there")
	}
	if after, _ := os.ReadFile(path); string(after) != before {
		t.Errorf("a refused edit changed the file:\n%s", after)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 { // the file, the link, the lock
		t.Errorf("files left behind: %v", entries)
	}
}

// FuzzEditPins: whatever the file, an edit either fails or yields a file
// that parses with the pin made.
func FuzzEditPins(f *testing.F) {
	f.Add("[profiles.prod]\nbase_url = \"https://a.example\"\n[profiles.prod.pins]\nvesters = [\n \"" + pinB.Hex() + "\" # c\n]\n")
	f.Add("[profiles.prod]\nbase_url = \"https://a.example\"\npins = { staking = [] }\n")
	f.Add("[profiles.prod]\nbase_url = 'https://a.example'\npins.tokens = [ ] # x\n")
	f.Fuzz(func(t *testing.T, src string) {
		got, err := EditPins([]byte(src), PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, CodeHash: hashOne})
		if err != nil {
			return
		}
		cfg, err := Parse(got)
		if err != nil {
			t.Fatalf("the edit does not parse: %v\n%s", err, got)
		}
		pins, err := cfg.Profiles["prod"].SigningPins()
		if err != nil || !pins.Pinned(wallet.PinVester, pinA) || pins.CodeHashes[pinA] != hashOne {
			t.Fatalf("pins %+v, %v", pins, err)
		}
	})
}

// TestPinsTOML: the table `allot sandbox` prints reads back as the same
// pins.
func TestPinsTOML(t *testing.T) {
	pins := Pins{Vesters: []string{pinA.Hex(), pinB.Hex()}, Tokens: []string{pinB.Hex()},
		CodeHashes: map[string]string{pinA.Hex(): hashOne.Hex(), pinB.Hex(): hashTwo.Hex()}}
	src := "[profiles.\"my sandbox\"]\nbase_url = \"http://127.0.0.1:8787\"\n" + pins.TOML("my sandbox")
	cfg, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if got := cfg.Profiles["my sandbox"].Pins; !reflect.DeepEqual(got, pins) {
		t.Errorf("read back %+v, want %+v", got, pins)
	}
}

func TestCodeHashesAreChecked(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{`"` + pinA.Hex() + `" = "0x12"`, `pins.code_hashes.` + pinA.Hex() + `: "0x12" is not a 0x code hash of 64 hex digits`},
		{`"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD" = "` + hashOne.Hex() + `"`, "pins.code_hashes: key \"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD\" has a wrong EIP-55 checksum"},
	} {
		_, err := Parse([]byte("[profiles.p]\nbase_url = \"https://a.example\"\n[profiles.p.pins.code_hashes]\n" + tc.toml + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.toml, err, tc.want)
		}
	}
}

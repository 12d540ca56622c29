package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// foundryKeystore copies the key file foundry's `cast wallet new` made
// (wallet/keystore/testdata) into a new keystore folder; it returns the
// folder, the file and the address cast printed.
func foundryKeystore(t *testing.T) (dir, file, addr string) {
	t.Helper()
	src := filepath.Join("..", "..", "wallet", "keystore", "testdata", "foundry")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "ADDRESS" {
			addr = strings.TrimSpace(string(data))
			continue
		}
		file = filepath.Join(dir, e.Name())
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, file, addr
}

// TestFoundryKeyListedAndSignsIn: a key made by `cast wallet new` (no
// address in the file) is listed by its file, and signs in by address.
func TestFoundryKeyListedAndSignsIn(t *testing.T) {
	t.Parallel()
	dir, file, addr := foundryKeystore(t)
	s := sandboxSession(t)
	env := map[string]string{"ALLOT_PASSPHRASE": "fixture passphrase"}

	r := runCLI(t, s, env, "account", "list", "--keystore", dir)
	if r.code != 0 || !strings.Contains(r.stdout, filepath.Base(file)) || !strings.Contains(r.stdout, "known once unlocked") || r.stderr != "" {
		t.Fatalf("account list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, s, env, "account", "list", "--keystore", dir, "-o", "json")
	var out struct {
		Keystore string
		Accounts []struct{ Address, File string }
	}
	decodeJSON(t, r, &out)
	if len(out.Accounts) != 1 || out.Accounts[0].Address != "" || out.Accounts[0].File != file {
		t.Errorf("json: %+v", out)
	}

	r = runCLI(t, s, env, "signin", "--account", addr, "--keystore", dir, "-o", "json")
	if r.code != 0 || !strings.Contains(r.stdout, addr) {
		t.Fatalf("signin with the foundry key: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": "wrong"}, "signin", "--account", addr, "--keystore", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "wrong passphrase, or no such account") {
		t.Errorf("signin with a wrong passphrase: exit %d\n%s", r.code, r.stderr)
	}
}

// TestAddressChecksumRefused: every address the user types on the command
// line, mixed case with a wrong EIP-55 checksum, is refused before anything
// is sent, with the right spelling shown; lower case is taken.
func TestAddressChecksumRefused(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	w := s.Fixtures.Wallets[0].Address // EIP-55 form
	// Flip the case of the first letter of the address.
	i := strings.IndexAny(w[2:], "abcdefABCDEF") + 2
	flipped := w[:i] + strings.Map(func(r rune) rune { return r ^ 0x20 }, w[i:i+1]) + w[i+1:]
	alloc := s.Fixtures.AllocationIDs[0]
	proofFile := filepath.Join(t.TempDir(), "proof.json")
	os.WriteFile(proofFile, []byte(runCLI(t, s, nil, "proof", alloc, "-o", "json").stdout), 0o600)
	sent := len(s.Requests.All())
	for _, args := range [][]string{
		{"humanity", flipped},
		{"claim", alloc, "--sender", flipped},
		{"stakes", "--pool", s.Fixtures.PoolIDs[0], "--wallet", flipped},
		{"signin", "--account", flipped},
		{"proof", "--file", proofFile, "--verify", "--vester", flipped},
	} {
		r := runCLI(t, s, nil, args...)
		if r.code != ExitUsage && r.code != ExitError || !strings.Contains(r.stderr, "checksum") || !strings.Contains(r.stderr, w) {
			t.Errorf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	// All lower case is taken, and written back as every screen writes
	// an address, checksummed; "humanity passed yes" as the Portal
	// screen says it.
	if r := runCLI(t, s, nil, "humanity", strings.ToLower(w)); r.code != 0 || !strings.Contains(r.stdout, " "+w+"\n") || !strings.Contains(r.stdout, "humanity passed:  yes\n") {
		t.Errorf("lower case: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := len(s.Requests.All()) - sent; n != 1 {
		t.Errorf("%d requests sent, want only the lower-case humanity one", n)
	}
}

// TestAccountNewAsksTwice: account new asks the passphrase twice at the
// terminal, refuses a mismatch (creating nothing) and warns below 8
// characters.
func TestAccountNewAsksTwice(t *testing.T) {
	t.Parallel()
	run1 := func(typed ...string) (result, string) {
		dir := t.TempDir()
		var stdout, stderr bytes.Buffer
		e := &env{IO: IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }},
			readSecret: func() (string, error) {
				l := typed[0]
				typed = typed[1:]
				return l, nil
			}}
		code := report(&stderr, run(context.Background(), e, []string{"account", "new", "--light", "--keystore", dir}))
		return result{stdout.String(), stderr.String(), code}, dir
	}
	r, dir := run1("correct horse", "correct hrose")
	if entries, _ := os.ReadDir(dir); r.code == 0 || len(entries) != 0 || !strings.Contains(r.stderr, "differ") {
		t.Errorf("mismatch: exit %d, %d files\n%s", r.code, len(entries), r.stderr)
	}
	r, dir = run1("abc", "abc")
	if entries, _ := os.ReadDir(dir); r.code != 0 || len(entries) != 1 || !strings.Contains(r.stderr, "warning: the passphrase has 3 characters") {
		t.Errorf("short: exit %d, %d files\n%s", r.code, len(entries), r.stderr)
	}
	r, _ = run1("correct horse battery", "correct horse battery")
	if r.code != 0 || strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "Repeat the passphrase") {
		t.Errorf("good: exit %d\n%s", r.code, r.stderr)
	}
}

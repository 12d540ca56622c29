package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// listedSafe is what a test reads of safe list -o json.
type listedSafe struct {
	Safe, Refused string
	Threshold     uint64
	Owners        []ownerJSON
}

// withConfigFile gives the fixture's session a configuration file of its
// own profile, written as a person would, and returns its path.
func (f *safeFixture) withConfigFile(t *testing.T) (path, src string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "config.toml")
	src = "# the team's\n[profiles.test]   # the Safe fixture\nbase_url = \"http://127.0.0.1:1\" # not used\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	f.sess.ConfigPath = path
	return path, src
}

// TestSafeAddAndList: safe add reads the real Safe and lists it in the
// profile's file, its comments kept; safe list shows it with its
// threshold, owners, nonce and the owner whose key is here; safe remove
// takes it out again.
func TestSafeAddAndList(t *testing.T) {
	t.Parallel()
	f := newSafeFixture(t)
	path, src := f.withConfigFile(t)
	r := runCLI(t, f.sess, nil, "safe", "add", f.safe.Hex())
	if r.code != 0 || !strings.Contains(r.stdout, "listed the Safe "+f.safe.Hex()+` in profile "test"`) || !strings.Contains(r.stdout, "Safe 1.4.1, 2 of its 3 owners sign") {
		t.Fatalf("safe add: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(path)
	if want := src + "safes = [\"" + f.safe.Hex() + "\"]\n"; err != nil || string(data) != want {
		t.Errorf("the file after safe add: %v\n%s\nwant:\n%s", err, data, want)
	}
	if r := runCLI(t, f.sess, nil, "safe", "add", strings.ToLower(f.safe.Hex())); r.code != 0 || !strings.Contains(r.stdout, "lists the Safe "+f.safe.Hex()+" already") {
		t.Errorf("safe add again: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = runCLI(t, f.sess, nil, "safe", "list")
	for _, want := range []string{"Safe:", f.safe.Hex(), "2 of 3 owners sign a transaction", "0 (the next transaction's)",
		f.owners[0].Hex() + "  in the keystore", f.owners[1].Hex() + "  -", `1 Safe(s) in profile "test"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("safe list lacks %q: exit %d\n%s%s", want, r.code, r.stdout, r.stderr)
		}
	}
	r = runCLI(t, f.sess, nil, "safe", "list", "-o", "json")
	var list []listedSafe
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || r.code != 0 {
		t.Fatalf("safe list -o json: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	if len(list) != 1 || list[0].Safe != f.safe.Hex() || list[0].Threshold != 2 || len(list[0].Owners) != 3 || !list[0].Owners[0].InKeystore || list[0].Owners[1].InKeystore {
		t.Errorf("safe list -o json: %s", r.stdout)
	}

	if r := runCLI(t, f.sess, nil, "safe", "remove", f.safe.Hex()); r.code != 0 {
		t.Fatalf("safe remove: exit %d\n%s", r.code, r.stderr)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), f.safe.Hex()) || !strings.HasPrefix(string(data), src) {
		t.Errorf("the file after safe remove:\n%s", data)
	}
	if r := runCLI(t, f.sess, nil, "safe", "remove", f.safe.Hex()); r.code != 1 || !strings.Contains(r.stderr, "does not list this Safe") {
		t.Errorf("safe remove of a Safe not listed: exit %d\n%s", r.code, r.stderr)
	}
}

// TestSafeAddRefusesWhatIsNoSafe: a proxy of something that is no Safe is
// refused as safe show refuses it, and the file is left as it was.
func TestSafeAddRefusesWhatIsNoSafe(t *testing.T) {
	t.Parallel()
	f := newSafeFixture(t)
	path, src := f.withConfigFile(t)
	fake := f.safes.Proxy(t, f.d, f.safes.MultiSendAddr, 2)
	r := runCLI(t, f.sess, nil, "safe", "add", fake.Hex())
	if r.code != ExitCheckFail || !strings.Contains(r.stderr, "not a canonical Safe") || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != src {
		t.Errorf("the file after a refused safe add: %v\n%s", err, data)
	}
}

// TestSafeListSaysWhyASafeIsRefused: a listed address that is no Safe
// (written in the file by hand) is shown with why, beside the Safe that
// is one, and the list exits 3.
func TestSafeListSaysWhyASafeIsRefused(t *testing.T) {
	t.Parallel()
	f := newSafeFixture(t)
	path, src := f.withConfigFile(t)
	fake := f.safes.Proxy(t, f.d, f.safes.MultiSendAddr, 2)
	src += "safes = [\"" + fake.Hex() + "\", \"" + f.safe.Hex() + "\"]\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, f.sess, nil, "safe", "list")
	for _, want := range []string{"Refused:", "no Safe allot works with", f.safes.MultiSendAddr.Hex(), "2 of 3 owners sign a transaction"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("safe list lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != ExitCheckFail || !strings.Contains(r.stderr, "1 of the profile's 2 Safes are no Safe allot works with") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, f.sess, nil, "safe", "list", "-o", "json")
	var list []listedSafe
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 2 || list[0].Refused == "" || list[0].Threshold != 0 || list[1].Threshold != 2 {
		t.Errorf("safe list -o json: %v\n%s", err, r.stdout)
	}
}

package keystore

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// fixturePassphrase is the passphrase make-fixtures.sh gives the tools.
const fixturePassphrase = "fixture passphrase"

// fixture copies the key file of testdata/<tool> into a new keystore
// folder and returns it with the address the tool printed when it made it.
func fixture(t *testing.T, tool string) (dir string, file string, addr common.Address) {
	t.Helper()
	src := filepath.Join("testdata", tool)
	printed, err := os.ReadFile(filepath.Join(src, "ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, e := range entries {
		if e.Name() == "ADDRESS" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		file = filepath.Join(dir, e.Name())
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, file, common.HexToAddress(strings.TrimSpace(string(printed)))
}

// TestFoundryKeystore: `cast wallet new` writes a UUID-named file with no
// address. It is listed by its file name, unlocks by address (the address
// is proven by the decryption) and then signs as that address.
func TestFoundryKeystore(t *testing.T) {
	dir, file, addr := fixture(t, "foundry")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	accts := s.Accounts()
	if len(accts) != 1 || len(s.Problems()) != 0 {
		t.Fatalf("accounts %v, problems %v", accts, s.Problems())
	}
	if a := accts[0]; !a.Unnamed || a.Verified || a.Path != file || !strings.Contains(a.Label(), filepath.Base(file)) {
		t.Errorf("before unlock: %+v, label %q", a, a.Label())
	}
	if !s.MayHold(addr) {
		t.Error("MayHold is false for the unnamed file's address")
	}
	if err := s.Unlock(addr, "wrong"); !errors.Is(err, ErrWrongPassphrase) || !errors.Is(err, ErrNoAccount) {
		t.Errorf("wrong passphrase: %v", err)
	}
	if err := s.Unlock(addr, fixturePassphrase); err != nil {
		t.Fatal(err)
	}
	if a := s.Accounts()[0]; a.Unnamed || !a.Verified || a.Address != addr || a.Label() != addr.Hex() {
		t.Errorf("after unlock: %+v", a)
	}
	sig, err := s.Signer(addr).SignText([]byte("hello"))
	if err != nil || len(sig) != 65 {
		t.Fatalf("sign: %v", err)
	}
	// A refresh keeps what the unlock proved.
	if err := s.Refresh(); err != nil {
		t.Fatal(err)
	}
	if a := s.Accounts()[0]; a.Address != addr || !a.Verified {
		t.Errorf("after refresh: %+v", a)
	}

	// The dashboard unlocks by file.
	s2, _ := Open(dir)
	if got, err := s2.UnlockFile(file, fixturePassphrase); err != nil || got != addr {
		t.Errorf("UnlockFile = %s, %v; want %s", got, err, addr.Hex())
	}
}

// TestGethKeystore: go-ethereum's own layout, at its standard scrypt.
func TestGethKeystore(t *testing.T) {
	if testing.Short() {
		t.Skip("standard scrypt takes a second")
	}
	dir, file, addr := fixture(t, "geth")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Accounts(); len(a) != 1 || a[0].Address != addr || a[0].Unnamed || a[0].Path != file {
		t.Fatalf("accounts %+v", a)
	}
	if err := s.Unlock(addr, fixturePassphrase); err != nil {
		t.Fatal(err)
	}
	if !s.Accounts()[0].Verified {
		t.Error("not verified after unlock")
	}
}

// TestCastMadeKeystore makes a key with foundry's cast, when it is on the
// PATH, and unlocks it: the committed fixture may age, the tool does not.
func TestCastMadeKeystore(t *testing.T) {
	cast, err := exec.LookPath("cast")
	if err != nil {
		t.Skip("foundry's cast is not on the PATH")
	}
	dir := t.TempDir()
	out, err := exec.Command(cast, "wallet", "new", dir, "--unsafe-password", fixturePassphrase).CombinedOutput()
	if err != nil {
		t.Fatalf("cast wallet new: %v\n%s", err, out)
	}
	var addr common.Address
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "Address:"); ok {
			addr = common.HexToAddress(strings.TrimSpace(v))
		}
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Unlock(addr, fixturePassphrase); err != nil {
		t.Fatalf("unlock %s: %v (cast said %s)", addr.Hex(), err, out)
	}
}

// TestFIFOInKeystore: a FIFO in the folder is reported, not opened (opening
// one for reading blocks until a writer comes, which never does).
func TestFIFOInKeystore(t *testing.T) {
	dir, _, _ := fixture(t, "foundry")
	fifo := filepath.Join(dir, "UTC--fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink(fifo, filepath.Join(dir, "link-to-fifo")); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Accounts()) != 1 {
		t.Errorf("accounts %v", s.Accounts())
	}
	problems := s.Problems()
	if len(problems) != 2 {
		t.Fatalf("problems %v", problems)
	}
	for _, p := range problems {
		if !errors.Is(p.Err, ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", p.Path, p.Err)
		}
	}
	if _, err := s.Import(fifo, fixturePassphrase, "", true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("import of a FIFO: %v", err)
	}
}

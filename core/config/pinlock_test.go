package config

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
)

// TestEditPinsFileAtOnce: edits of one file at once, as two `allot pin`
// would make them, each see the others': no change is lost, and a removal
// reported done is done.
func TestEditPinsFileAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "[profiles.prod]\nbase_url = \"https://a.example\"\n[profiles.prod.pins]\nvesters = [\"" + pinA.Hex() + "\"]\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	const n = 16
	added := make([]common.Address, n)
	var wg sync.WaitGroup
	errs := make(chan error, n+1)
	for i := range added {
		added[i] = common.BigToAddress(common.Big1.Lsh(common.Big1, uint(8+i)))
		wg.Go(func() {
			errs <- EditPinsFile(path, PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: added[i], CodeHash: hashOne})
		})
	}
	wg.Go(func() {
		errs <- EditPinsFile(path, PinEdit{Profile: "prod", Kind: wallet.PinVester, Address: pinA, Remove: true})
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	pins, err := cfg.Profiles["prod"].SigningPins()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range added {
		if !pins.Pinned(wallet.PinStaking, a) {
			t.Errorf("lost the pin of %s", a.Hex())
		}
	}
	if pins.Pinned(wallet.PinVester, pinA) {
		t.Errorf("the removal was reported done, and %s is still pinned", pinA.Hex())
	}
}

// TestEditPinsFileRefusesToReplace: a file its owner made read-only is
// refused with the reason and left as it was, mode included.
func TestEditPinsFileRefusesToReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "[profiles.prod]\nbase_url = \"https://a.example\"\n"
	if err := os.WriteFile(path, []byte(src), 0o400); err != nil {
		t.Fatal(err)
	}
	err := EditPinsFile(path, PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: pinB, CodeHash: hashTwo})
	if err == nil || !strings.Contains(err.Error(), "read-only (mode 0400)") {
		t.Fatalf("err %v: want the read-only file refused", err)
	}
	info, _ := os.Stat(path)
	if data, _ := os.ReadFile(path); string(data) != src || info.Mode().Perm() != 0o400 {
		t.Errorf("the file was replaced: %v %q", info.Mode().Perm(), data)
	}
}

// TestEditPinsFileRefusesAnotherUsers: a file that belongs to another
// user is refused and left as it was (only root can make one to test).
func TestEditPinsFileRefusesAnotherUsers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "[profiles.prod]\nbase_url = \"https://a.example\"\n"
	if err := os.WriteFile(path, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	err := EditPinsFile(path, PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: pinB, CodeHash: hashTwo})
	if err == nil || !strings.Contains(err.Error(), "belongs to another user (uid 4242)") {
		t.Fatalf("err %v: want another user's file refused", err)
	}
	if data, _ := os.ReadFile(path); string(data) != src {
		t.Errorf("the file was replaced: %q", data)
	}
}

// TestEditPinsFileKeepsCRLF: a file written with CRLF line ends keeps
// them, the lines the edit adds included.
func TestEditPinsFileKeepsCRLF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "[profiles.prod]\r\nbase_url = \"https://a.example\"\r\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := EditPinsFile(path, PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: pinB, CodeHash: hashTwo}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	text := string(data)
	if !strings.HasPrefix(text, src) || !strings.Contains(text, pinB.Hex()) || strings.Count(text, "\n") != strings.Count(text, "\r\n") {
		t.Errorf("after the edit:\n%q", text)
	}
}

package cli

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/api/sandbox/chain"
	"allot/core/config"
	"allot/core/session"
	"allot/wallet/safe/safetest"
)

// safeFixture is the real Safe 1.4.1 contracts on the sandbox's chain, a
// 2-of-3 Safe whose first owner's key is in the profile's keystore, and a
// session on them.
type safeFixture struct {
	chain  *chain.Chain
	d      *safetest.Deployer
	safes  *safetest.Safes
	owners []common.Address
	safe   common.Address
	sess   *session.Session
}

func newSafeFixture(t *testing.T) *safeFixture {
	t.Helper()
	safetest.Dir(t, safetest.Contracts) // skips before a chain starts
	ksDir, user := newTestKeystore(t)
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	c, err := chain.New(chain.Options{Balances: map[common.Address]*big.Int{crypto.PubkeyToAddress(key.PublicKey): ether(100)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	f := &safeFixture{chain: c, d: &safetest.Deployer{Client: c.Client(), Key: key, Commit: func() { c.Commit() }}}
	f.safes = safetest.DeploySafes(t, f.d)
	f.owners = []common.Address{user, common.HexToAddress("0x00000000000000000000000000000000000b0b01"), common.HexToAddress("0x00000000000000000000000000000000000b0b02")}
	f.safe = f.safes.Create(t, f.d, f.safes.Singleton, f.owners, 2, 1)
	f.sess = &session.Session{
		Name:     "test",
		Profile:  config.Profile{Name: "test", ChainID: c.ChainID(), Keystore: ksDir},
		Requests: session.NewRequestLog(),
		StateDir: t.TempDir(),
		Now:      time.Now,
		Chain:    c.Client(),
	}
	return f
}

// TestSafeShow: allot safe show reads the real Safe's owners, threshold,
// nonce, version and singleton, and says which owner's key is here.
func TestSafeShow(t *testing.T) {
	t.Parallel()
	f := newSafeFixture(t)
	r := runCLI(t, f.sess, nil, "safe", "show", f.safe.Hex(), "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got safeJSON
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Safe != f.safe.Hex() || got.Singleton != f.safes.Singleton.Hex() || got.Canonical != "Safe 1.4.1" || got.Version != "1.4.1" ||
		got.Threshold != 2 || got.Nonce != "0" || len(got.Owners) != 3 {
		t.Errorf("read %+v", got)
	}
	for _, o := range got.Owners {
		if want := o.Address == f.owners[0].Hex(); o.InKeystore != want {
			t.Errorf("owner %s: in the keystore %v, want %v", o.Address, o.InKeystore, want)
		}
	}
	r = runCLI(t, f.sess, nil, "safe", "show", f.safe.Hex())
	for _, want := range []string{"2 of 3 owners sign a transaction", "1 of the owners' keys are in the keystore", f.owners[0].Hex() + "  in the keystore"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the table lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestSafeShowRefusesAProxyOfAnythingElse: a proxy from the real factory
// whose singleton is not a Safe's code is refused, naming the singleton,
// and nothing of it is shown.
func TestSafeShowRefusesAProxyOfAnythingElse(t *testing.T) {
	t.Parallel()
	f := newSafeFixture(t)
	fake := f.safes.Proxy(t, f.d, f.safes.MultiSendAddr, 2)
	r := runCLI(t, f.sess, nil, "safe", "show", fake.Hex())
	if r.code != ExitCheckFail || r.stdout != "" || !strings.Contains(r.stderr, f.safes.MultiSendAddr.Hex()) || !strings.Contains(r.stderr, "not a canonical Safe") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestSafeHashEqualsTheSafes: allot safe hash prints the hash the real
// Safe computes for the same fields, at its next nonce.
func TestSafeHashEqualsTheSafes(t *testing.T) {
	t.Parallel()
	f := newSafeFixture(t)
	to := f.owners[1]
	r := runCLI(t, f.sess, nil, "safe", "hash", "--safe", f.safe.Hex(), "--to", to.Hex(), "--value", "1000", "--data", "0x0102", "--operation", "1", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	want := f.d.View(t, f.safes.Safe, f.safe, "getTransactionHash", to, big.NewInt(1000), []byte{1, 2}, uint8(1),
		new(big.Int), new(big.Int), new(big.Int), common.Address{}, common.Address{}, new(big.Int))[0].([32]byte)
	if got["safeTxHash"] != common.Hash(want).Hex() || got["nonce"] != "0" {
		t.Errorf("safeTxHash %s at nonce %s, the Safe's %s at 0", got["safeTxHash"], got["nonce"], common.Hash(want).Hex())
	}
	domain := f.d.View(t, f.safes.Safe, f.safe, "domainSeparator")[0].([32]byte)
	if got["domainHash"] != common.Hash(domain).Hex() {
		t.Errorf("domain hash %s, the Safe's %s", got["domainHash"], common.Hash(domain).Hex())
	}
}

package cli

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/google/uuid"
)

// testKey is the fixtures' account, encrypted with testPassphrase once
// per test binary with the demo keystore's scrypt (n = 2^12, p = 1), not
// a new light key (p = 6) per fixture: writing a key and each unlock of
// it were a fifth of the package's CPU, and every fixture has a chain of
// its own, so no two tests share what the key holds.
var testKey = sync.OnceValues(func() (keyFile, error) {
	key, err := crypto.GenerateKey()
	if err != nil {
		return keyFile{}, err
	}
	addr := crypto.PubkeyToAddress(key.PublicKey)
	data, err := gethkeystore.EncryptKey(&gethkeystore.Key{Id: uuid.New(), Address: addr, PrivateKey: key}, testPassphrase, 1<<12, 1)
	return keyFile{addr, data}, err
})

type keyFile struct {
	addr common.Address
	data []byte
}

// newTestKeystore is a keystore directory of the test's own holding the
// fixtures' account.
func newTestKeystore(t *testing.T) (dir string, addr common.Address) {
	t.Helper()
	k, err := testKey()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	name := "UTC--2026-11-22T10-00-00.000000000Z--" + common.Bytes2Hex(k.addr[:])
	if err := os.WriteFile(filepath.Join(dir, name), k.data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, k.addr
}

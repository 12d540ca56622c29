package sandbox

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/google/uuid"
)

// keystoreFiles are the demo wallets' V3 keystore files.
type keystoreFiles struct {
	dir   string
	owned bool     // created by the sandbox, removed by Close
	files []string // by wallet index
}

// writeKeystore writes one V3 keystore file per wallet into dir (a new
// temporary directory when dir is empty), encrypted with its passphrase
// and go-ethereum's light scrypt parameters: demo keys need no more, and
// start-up stays fast. File names are fixed per wallet, so a sandbox started
// again on the same directory overwrites its files instead of adding
// duplicates.
func writeKeystore(dir string, wallets []*Wallet) (keystoreFiles, error) {
	ks := keystoreFiles{dir: dir}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "allot-sandbox-keystore-")
		if err != nil {
			return ks, fmt.Errorf("keystore: %w", err)
		}
		ks.dir, ks.owned = tmp, true
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return ks, fmt.Errorf("keystore: %w", err)
	}
	ks.files = make([]string, len(wallets))
	errs := make([]error, len(wallets))
	var wg sync.WaitGroup
	for i, w := range wallets {
		ks.files[i] = filepath.Join(ks.dir, fmt.Sprintf("sandbox-wallet-%d--%s.json", w.Index, hex.EncodeToString(w.Address[:])))
		wg.Go(func() { errs[i] = writeKeyFile(ks.files[i], w) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		ks.remove()
		return keystoreFiles{}, fmt.Errorf("keystore: %w", err)
	}
	return ks, nil
}

func writeKeyFile(path string, w *Wallet) error {
	key := &keystore.Key{
		Id:         uuid.NewSHA1(namespace, []byte(fmt.Sprintf("keystore/%d", w.Index))),
		Address:    w.Address,
		PrivateKey: w.Key,
	}
	data, err := keystore.EncryptKey(key, w.Passphrase, keystore.LightScryptN, keystore.LightScryptP)
	if err != nil {
		return fmt.Errorf("encrypt wallet %d: %w", w.Index, err)
	}
	// Write aside and rename, so that a keystore reading the directory
	// never sees half a file.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sandbox-wallet-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write wallet %d: %w", w.Index, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write wallet %d: %w", w.Index, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write wallet %d: %w", w.Index, err)
	}
	return nil
}

// remove deletes the directory if the sandbox created it.
func (ks keystoreFiles) remove() error {
	if !ks.owned {
		return nil
	}
	if err := os.RemoveAll(ks.dir); err != nil {
		return fmt.Errorf("remove keystore: %w", err)
	}
	return nil
}

package sandbox

import (
	"allot/internal/atomicfile"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// keystoreFiles are the demo wallets' V3 keystore files.
type keystoreFiles struct {
	dir   string
	owned bool     // created by the sandbox, removed by Close
	files []string // by wallet index
}

// demoKeystore holds the demo wallets' V3 keystore files, encrypted once
// with their passphrases and the demo's scrypt parameters (TestDemoKeystore
// makes them again with -update-demo-keystore). Encrypting at every start
// cost the embedded sandbox a third of a second of scrypt; the keys are
// public knowledge (demoKey), so a fixed salt hides nothing.
//
//go:embed demokeystore/*.json
var demoKeystore embed.FS

// The demo's scrypt parameters: go-ethereum's light n with one lane (its
// light p is 6). The passphrases are published beside the keys, so scrypt
// guards nothing here, and every unlock of a demo wallet costs a sixth.
const (
	demoScryptN = 1 << 12
	demoScryptP = 1
)

// demoKeyFile returns wallet n's keystore file, checked to be for address.
func demoKeyFile(n int, address common.Address) ([]byte, error) {
	data, err := demoKeystore.ReadFile(fmt.Sprintf("demokeystore/wallet-%d.json", n))
	if err != nil {
		return nil, fmt.Errorf("demo wallet %d: no keystore file", n)
	}
	var file struct {
		Address string `json:"address"`
	}
	if err := json.Unmarshal(data, &file); err != nil || !strings.EqualFold(file.Address, hex.EncodeToString(address[:])) {
		return nil, fmt.Errorf("demo wallet %d: its keystore file is not for %s", n, address.Hex())
	}
	return data, nil
}

// writeKeystore writes one V3 keystore file per wallet into dir (a new
// temporary directory when dir is empty). File names are fixed per wallet,
// so a sandbox started again on the same directory overwrites its files
// instead of adding duplicates.
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
	for i, w := range wallets {
		ks.files[i] = filepath.Join(ks.dir, fmt.Sprintf("sandbox-wallet-%d--%s.json", w.Index, hex.EncodeToString(w.Address[:])))
		if err := writeKeyFile(ks.files[i], w); err != nil {
			ks.remove()
			return keystoreFiles{}, fmt.Errorf("keystore: %w", err)
		}
	}
	return ks, nil
}

func writeKeyFile(path string, w *Wallet) error {
	data, err := demoKeyFile(w.Index, w.Address)
	if err != nil {
		return err
	}
	// Whole or not at all: a keystore reading the directory never sees
	// half a file.
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("wallet %d: %w", w.Index, err)
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

package keystore

import (
	"crypto/ecdsa"
	"fmt"
	"os"
	"path/filepath"
	"time"

	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// New creates an account with a fresh key, encrypted with passphrase:
// standard scrypt (n = 2^18), or light scrypt (n = 2^12) when light is set,
// which is fast and weak, for tests and demos only.
func (s *Store) New(passphrase string, light bool) (Account, error) {
	key, err := crypto.GenerateKey()
	if err != nil {
		return Account{}, fmt.Errorf("new account: %w", err)
	}
	defer zero(key)
	return s.store(key, passphrase, light)
}

// Import copies the keystore file at path into the store after checking
// that passphrase decrypts it, re-encrypted with newPassphrase when that is
// not empty.
func (s *Store) Import(path, passphrase, newPassphrase string, light bool) (Account, error) {
	key, kf, err := decryptFile(path, passphrase)
	if err != nil {
		return Account{}, fmt.Errorf("import: %w", err)
	}
	defer zero(key)
	if newPassphrase == "" {
		newPassphrase = passphrase
	}
	addr := crypto.PubkeyToAddress(key.PublicKey)
	if kf.named && kf.address != addr {
		return Account{}, fmt.Errorf("import: %s: %w (it names %s, the key is %s)", filepath.Base(path), ErrAddressMismatch, kf.address.Hex(), addr.Hex())
	}
	s.mu.Lock()
	_, found := s.find(addr)
	s.mu.Unlock()
	if found {
		return Account{}, fmt.Errorf("import: %s is already in the keystore", addr.Hex())
	}
	return s.store(key, newPassphrase, light)
}

func (s *Store) store(key *ecdsa.PrivateKey, passphrase string, light bool) (Account, error) {
	n, p := gethkeystore.StandardScryptN, gethkeystore.StandardScryptP
	if light {
		n, p = gethkeystore.LightScryptN, gethkeystore.LightScryptP
	}
	addr := crypto.PubkeyToAddress(key.PublicKey)
	data, err := gethkeystore.EncryptKey(&gethkeystore.Key{Address: addr, PrivateKey: key, Id: randomID()}, passphrase, n, p)
	if err != nil {
		return Account{}, fmt.Errorf("encrypt key: %w", err)
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return Account{}, fmt.Errorf("keystore: %w", err)
	}
	path := filepath.Join(s.dir, fileName(addr, time.Now()))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return Account{}, fmt.Errorf("keystore: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return Account{}, fmt.Errorf("keystore: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return Account{}, fmt.Errorf("keystore: %w", err)
	}
	if err := s.Refresh(); err != nil {
		return Account{}, err
	}
	return Account{Address: addr, Path: path, Verified: true}, nil
}

// fileName is geth's: UTC--<time>--<address>.
func fileName(addr common.Address, t time.Time) string {
	return fmt.Sprintf("UTC--%s--%x", t.UTC().Format("2006-01-02T15-04-05.000000000Z"), addr.Bytes())
}

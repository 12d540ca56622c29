package keystore

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// New creates an account with a fresh key, encrypted with passphrase:
// standard scrypt (n = 2^18), or light scrypt (n = 2^12) when light is set,
// which is fast and weak, for tests and demos only.
func (s *Store) New(passphrase string, light bool) (Account, error) {
	key, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return Account{}, fmt.Errorf("new account: %w", err)
	}
	defer zero(key)
	pub := key.PubKey().SerializeUncompressed()
	return s.store(key, common.BytesToAddress(crypto.Keccak256(pub[1:])[12:]), passphrase, light)
}

// Import copies the keystore file at path into the store after checking
// that passphrase decrypts it, re-encrypted with newPassphrase when that is
// not empty.
func (s *Store) Import(path, passphrase, newPassphrase string, light bool) (Account, error) {
	key, addr, kf, err := decryptFile(path, passphrase)
	if err != nil {
		return Account{}, fmt.Errorf("import: %w", err)
	}
	defer zero(key)
	if newPassphrase == "" {
		newPassphrase = passphrase
	}
	if kf.named && kf.address != addr {
		return Account{}, fmt.Errorf("import: %s: %w (it names %s, the key is %s)", filepath.Base(path), ErrAddressMismatch, kf.address.Hex(), addr.Hex())
	}
	s.mu.Lock()
	_, found := s.find(addr)
	s.mu.Unlock()
	if found {
		return Account{}, fmt.Errorf("import: %s is already in the keystore", addr.Hex())
	}
	return s.store(key, addr, newPassphrase, light)
}

// store writes key, of addr, as a V3 keystore file: geth's EncryptKey
// without its ecdsa.PrivateKey, whose secret could not be zeroed after.
func (s *Store) store(key *secp256k1.PrivateKey, addr common.Address, passphrase string, light bool) (Account, error) {
	n, p := gethkeystore.StandardScryptN, gethkeystore.StandardScryptP
	if light {
		n, p = gethkeystore.LightScryptN, gethkeystore.LightScryptP
	}
	secret := key.Serialize()
	sealed, err := gethkeystore.EncryptDataV3(secret, []byte(passphrase), n, p)
	clear(secret)
	if err != nil {
		return Account{}, fmt.Errorf("encrypt key: %w", err)
	}
	data, err := json.Marshal(struct {
		Address string                  `json:"address"`
		Crypto  gethkeystore.CryptoJSON `json:"crypto"`
		ID      string                  `json:"id"`
		Version int                     `json:"version"`
	}{hex.EncodeToString(addr[:]), sealed, randomID().String(), 3})
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

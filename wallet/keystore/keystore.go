// Package keystore opens a directory of Ethereum V3 keystore files (geth's
// and foundry's layouts), unlocks accounts with their passphrase, signs, and
// locks them again.
//
// Trust model: a file's address is a claim, not a fact, until decrypting
// the file proves it (Account.Verified). Every file is checked before
// decryption: its structure, and key-derivation parameters bounded so that
// a hostile file cannot make us allocate gigabytes or run for minutes.
// A decrypted key is kept only while its account is unlocked, relocks after
// a timeout, and is zeroed when locked (as far as Go lets memory be zeroed:
// copies the runtime made of big.Int words are beyond reach).
package keystore

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/wallet/siwe"
)

// DefaultRelock is how long an account stays unlocked.
const DefaultRelock = 5 * time.Minute

// Errors a caller tells apart.
var (
	ErrWrongPassphrase = errors.New("wrong passphrase")
	ErrLocked          = errors.New("account is locked")
	ErrNoAccount       = errors.New("no such account in the keystore")
	ErrAddressMismatch = errors.New("the key in the file is not the address the file names")
)

// Account is a keystore file and the address it names.
type Account struct {
	Address  common.Address
	Path     string
	Verified bool // a decryption proved the address
}

// FileError is a file of the directory that is not a usable keystore.
type FileError struct {
	Path string
	Err  error
}

func (e FileError) Error() string { return filepath.Base(e.Path) + ": " + e.Err.Error() }

// Store is a keystore directory. It is safe for concurrent use.
type Store struct {
	dir    string
	now    func() time.Time
	relock time.Duration

	mu       sync.Mutex
	accounts []Account
	problems []FileError
	unlocked map[common.Address]*unlocked
}

type unlocked struct {
	key   *ecdsa.PrivateKey
	until time.Time
}

// Option configures Open.
type Option func(*Store)

// WithRelock sets how long an unlocked account stays unlocked.
func WithRelock(d time.Duration) Option { return func(s *Store) { s.relock = d } }

// WithClock sets the clock, for tests.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// DefaultDir returns dir, or ~/.ethereum/keystore when dir is empty.
func DefaultDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("keystore: %w", err)
	}
	return filepath.Join(home, ".ethereum", "keystore"), nil
}

// Open reads the directory. A missing directory is an empty keystore; files
// that are not usable keystores are listed by Problems.
func Open(dir string, opts ...Option) (*Store, error) {
	s := &Store{dir: dir, now: time.Now, relock: DefaultRelock, unlocked: map[common.Address]*unlocked{}}
	for _, o := range opts {
		o(s)
	}
	if err := s.Refresh(); err != nil {
		return nil, err
	}
	return s, nil
}

// Dir returns the keystore directory.
func (s *Store) Dir() string { return s.dir }

// Refresh reads the directory again.
func (s *Store) Refresh() error {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		entries = nil
	} else if err != nil {
		return fmt.Errorf("keystore %s: %w", s.dir, err)
	}
	var accounts []Account
	var problems []FileError
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") {
			continue
		}
		path := filepath.Join(s.dir, name)
		data, err := readBounded(path)
		if err != nil {
			problems = append(problems, FileError{path, err})
			continue
		}
		addr, err := precheck(data)
		if err != nil {
			problems = append(problems, FileError{path, err})
			continue
		}
		accounts = append(accounts, Account{Address: common.HexToAddress(addr), Path: path})
	}
	sort.Slice(accounts, func(i, j int) bool { return accounts[i].Path < accounts[j].Path })
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range accounts {
		for _, old := range s.accounts {
			if old.Path == accounts[i].Path && old.Address == accounts[i].Address {
				accounts[i].Verified = old.Verified
			}
		}
	}
	s.accounts, s.problems = accounts, problems
	return nil
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%w: %d bytes, more than a keystore file can be (%d)", ErrMalformed, info.Size(), MaxFileSize)
	}
	data := make([]byte, info.Size())
	if _, err := f.ReadAt(data, 0); err != nil && info.Size() > 0 {
		return nil, err
	}
	return data, nil
}

// Accounts returns the accounts, in file order.
func (s *Store) Accounts() []Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Account(nil), s.accounts...)
}

// Problems returns the files that could not be read as keystores.
func (s *Store) Problems() []FileError {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]FileError(nil), s.problems...)
}

func (s *Store) find(addr common.Address) (Account, error) {
	for _, a := range s.accounts {
		if a.Address == addr {
			return a, nil
		}
	}
	return Account{}, fmt.Errorf("%w: %s", ErrNoAccount, addr.Hex())
}

// Unlock decrypts the account's key with passphrase and keeps it until
// Lock or the relock timeout. It is slow (scrypt): call it off the UI.
func (s *Store) Unlock(addr common.Address, passphrase string) error {
	s.mu.Lock()
	acct, err := s.find(addr)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	key, err := decryptFile(acct.Path, passphrase)
	if err != nil {
		return err
	}
	if got := crypto.PubkeyToAddress(key.PublicKey); got != addr {
		zero(key)
		return fmt.Errorf("%s: %w (it holds %s)", filepath.Base(acct.Path), ErrAddressMismatch, got.Hex())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.unlocked[addr]; ok {
		zero(old.key)
	}
	s.unlocked[addr] = &unlocked{key: key, until: s.now().Add(s.relock)}
	for i := range s.accounts {
		if s.accounts[i].Address == addr {
			s.accounts[i].Verified = true
		}
	}
	return nil
}

// decryptFile reads, pre-checks and decrypts a keystore file.
func decryptFile(path, passphrase string) (key *ecdsa.PrivateKey, err error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if _, err := precheck(data); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	// The pre-check makes a panic in go-ethereum's decoder unreachable for
	// every case we know; this is the last line of defence.
	defer func() {
		if r := recover(); r != nil {
			key, err = nil, fmt.Errorf("%s: %w: the decoder failed (%v)", filepath.Base(path), ErrMalformed, r)
		}
	}()
	k, err := gethkeystore.DecryptKey(data, passphrase)
	if errors.Is(err, gethkeystore.ErrDecrypt) {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), ErrWrongPassphrase)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", filepath.Base(path), ErrMalformed, err)
	}
	return k.PrivateKey, nil
}

// Lock forgets the account's key, zeroing it.
func (s *Store) Lock(addr common.Address) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.unlocked[addr]; ok {
		zero(u.key)
		delete(s.unlocked, addr)
	}
}

// LockAll locks every account.
func (s *Store) LockAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for addr, u := range s.unlocked {
		zero(u.key)
		delete(s.unlocked, addr)
	}
}

// TimeLeft returns how long the account stays unlocked; 0 when locked.
func (s *Store) TimeLeft(addr common.Address) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.key(addr)
	if u == nil {
		return 0
	}
	return u.until.Sub(s.now())
}

// key returns the unlocked key, relocking it when its time is up. The
// caller holds s.mu.
func (s *Store) key(addr common.Address) *unlocked {
	u, ok := s.unlocked[addr]
	if !ok {
		return nil
	}
	if !s.now().Before(u.until) {
		zero(u.key)
		delete(s.unlocked, addr)
		return nil
	}
	return u
}

// SignHash signs a 32-byte hash: 65 bytes, V 0 or 1.
func (s *Store) SignHash(addr common.Address, hash []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.key(addr)
	if u == nil {
		return nil, fmt.Errorf("%s: %w", addr.Hex(), ErrLocked)
	}
	return crypto.Sign(hash, u.key)
}

// Signer returns a signer for the account, for wallet's flows. It signs only
// while the account is unlocked.
func (s *Store) Signer(addr common.Address) *Signer { return &Signer{store: s, addr: addr} }

// Signer signs with one account of a Store.
type Signer struct {
	store *Store
	addr  common.Address
}

// Address is the signing account.
func (g *Signer) Address() common.Address { return g.addr }

// SignText signs text as EIP-191 personal_sign: 65 bytes, V 27 or 28.
func (g *Signer) SignText(text []byte) ([]byte, error) {
	sig, err := g.store.SignHash(g.addr, siwe.TextHash(string(text)))
	if err != nil {
		return nil, err
	}
	sig[crypto.RecoveryIDOffset] += 27
	return sig, nil
}

// SignTx signs tx for chainID.
func (g *Signer) SignTx(tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	signer := types.LatestSignerForChainID(chainID)
	sig, err := g.store.SignHash(g.addr, signer.Hash(tx).Bytes())
	if err != nil {
		return nil, err
	}
	return tx.WithSignature(signer, sig)
}

// zero overwrites the key's secret scalar.
func zero(k *ecdsa.PrivateKey) {
	if k == nil || k.D == nil {
		return
	}
	b := k.D.Bits()
	for i := range b {
		b[i] = 0
	}
	k.D.SetInt64(0)
}

// Package keystore opens a directory of Ethereum V3 keystore files (geth's
// and foundry's layouts), unlocks accounts with their passphrase, signs, and
// locks them again.
//
// Trust model: a file's address is a claim, not a fact, until decrypting
// the file proves it (Account.Verified). Every file is checked before
// decryption: its structure, and key-derivation parameters bounded so that
// a hostile file cannot make us allocate gigabytes or run for minutes.
// A decrypted key is kept only while its account is unlocked, relocks after
// a time without a signature, and is zeroed when locked (as far as Go lets memory be zeroed:
// copies the runtime or the garbage collector made are beyond reach).
package keystore

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/internal/regularfile"
	"allot/wallet/siwe"
)

// DefaultRelock is how long an account stays unlocked without signing.
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
	// Address is the file's claim, proven once Verified; zero when the
	// file is Unnamed and not unlocked yet.
	Address common.Address
	Path    string
	// Verified: a decryption proved the address.
	Verified bool
	// Unnamed: the file names no address (foundry's `cast wallet new`
	// writes none), so it is known only once the key is unlocked.
	Unnamed bool
}

// Label is how a list shows the account: its address, or for a file that
// names none, its file name.
func (a Account) Label() string {
	if a.Unnamed {
		return filepath.Base(a.Path) + " (address known once unlocked)"
	}
	return a.Address.Hex()
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
	key   *secp256k1.PrivateKey
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

// Refresh reads the directory again. It reads no file while holding the
// store's lock, which Accounts, TimeLeft and signing take.
func (s *Store) Refresh() error {
	entries, err := withDeadline(func() ([]os.DirEntry, error) { return os.ReadDir(s.dir) })
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
		data, err := readFile(path)
		if err != nil {
			problems = append(problems, FileError{path, err})
			continue
		}
		kf, err := precheck(data)
		if err != nil {
			problems = append(problems, FileError{path, err})
			continue
		}
		accounts = append(accounts, Account{Address: kf.address, Path: path, Unnamed: !kf.named})
	}
	sort.Slice(accounts, func(i, j int) bool { return accounts[i].Path < accounts[j].Path })
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range accounts {
		for _, old := range s.accounts {
			if old.Path != accounts[i].Path || !old.Verified {
				continue
			}
			// An unnamed file keeps the address its unlock proved; the
			// next unlock checks it again.
			if accounts[i].Unnamed || old.Address == accounts[i].Address {
				accounts[i].Address, accounts[i].Verified, accounts[i].Unnamed = old.Address, true, false
			}
		}
	}
	s.accounts, s.problems = accounts, problems
	return nil
}

// ErrNotRegular is a directory entry that is not a regular file (a FIFO, a
// device, a socket): reading one may block forever or never end.
var ErrNotRegular = errors.New("not a regular file")

// fileDeadline bounds every file operation: a file on a hung network
// mount must not freeze a listing.
const fileDeadline = 5 * time.Second

// withDeadline runs f, giving up after fileDeadline. f goes on in the
// background when it overruns (a blocked system call cannot be taken
// back); what it returns then is dropped.
func withDeadline[T any](f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	t := time.NewTimer(fileDeadline)
	defer t.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-t.C:
		var zero T
		return zero, fmt.Errorf("no answer from the file system in %s", fileDeadline)
	}
}

// readFile reads a keystore file: a regular file (a symbolic link to one
// is fine) of at most MaxFileSize bytes, within fileDeadline.
func readFile(path string) ([]byte, error) {
	return withDeadline(func() ([]byte, error) {
		f, info, err := regularfile.Open(path)
		if errors.Is(err, regularfile.ErrNotRegular) {
			return nil, ErrNotRegular
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if info.Size() > MaxFileSize {
			return nil, fmt.Errorf("%w: %d bytes, more than a keystore file can be (%d)", ErrMalformed, info.Size(), MaxFileSize)
		}
		// Read one byte past the bound: the file may grow after the stat.
		data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
		if err == nil && len(data) > MaxFileSize {
			err = fmt.Errorf("%w: more than %d bytes", ErrMalformed, MaxFileSize)
		}
		return data, err
	})
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

// find returns the account whose file names addr, or which an unlock
// proved to hold it. The caller holds s.mu.
func (s *Store) find(addr common.Address) (Account, bool) {
	for _, a := range s.accounts {
		if !a.Unnamed && a.Address == addr {
			return a, true
		}
	}
	return Account{}, false
}

// MayHold reports whether addr may be an account of the store: a file names
// it, or a file names no address, which only an unlock can tell.
func (s *Store) MayHold(addr common.Address) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.find(addr)
	return ok || slices.ContainsFunc(s.accounts, func(a Account) bool { return a.Unnamed })
}

// Unlock decrypts the key of addr with passphrase and keeps it until Lock
// or the relock timeout. When no file names addr, the files that name no
// address are tried with the passphrase. It is slow (scrypt): call it off
// the UI.
func (s *Store) Unlock(addr common.Address, passphrase string) error {
	s.mu.Lock()
	acct, ok := s.find(addr)
	var unnamed []Account
	for _, a := range s.accounts {
		if a.Unnamed {
			unnamed = append(unnamed, a)
		}
	}
	s.mu.Unlock()
	if ok {
		_, err := s.UnlockFile(acct.Path, passphrase)
		return err
	}
	for _, a := range unnamed {
		key, got, _, err := decryptFile(a.Path, passphrase)
		if err != nil {
			continue
		}
		if got == addr {
			s.keep(a.Path, key, got)
			return nil
		}
		zero(key)
	}
	if len(unnamed) > 0 {
		return fmt.Errorf("%w, or %w: no file names %s, and none of the %d that name no address opens to it with this passphrase", ErrWrongPassphrase, ErrNoAccount, addr.Hex(), len(unnamed))
	}
	return fmt.Errorf("%w: %s", ErrNoAccount, addr.Hex())
}

// UnlockFile decrypts the key of the account at path, as Unlock does, and
// returns its address: proven, and equal to the one the file names, if it
// names one.
func (s *Store) UnlockFile(path, passphrase string) (common.Address, error) {
	s.mu.Lock()
	i := slices.IndexFunc(s.accounts, func(a Account) bool { return a.Path == path })
	var acct Account
	if i >= 0 {
		acct = s.accounts[i]
	}
	s.mu.Unlock()
	if i < 0 {
		return common.Address{}, fmt.Errorf("%w: %s", ErrNoAccount, filepath.Base(path))
	}
	key, got, kf, err := decryptFile(path, passphrase)
	if err != nil {
		return common.Address{}, err
	}
	// What the file names now, and what an earlier unlock proved.
	for _, claimed := range []struct {
		addr common.Address
		ok   bool
	}{{kf.address, kf.named}, {acct.Address, !acct.Unnamed}} {
		if claimed.ok && claimed.addr != got {
			zero(key)
			return common.Address{}, fmt.Errorf("%s: %w (it names %s, the key is %s)", filepath.Base(path), ErrAddressMismatch, claimed.addr.Hex(), got.Hex())
		}
	}
	s.keep(path, key, got)
	return got, nil
}

// keep holds key, of addr, as unlocked and marks the account at path as
// proven.
func (s *Store) keep(path string, key *secp256k1.PrivateKey, addr common.Address) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.unlocked[addr]; ok {
		zero(old.key)
	}
	s.unlocked[addr] = &unlocked{key: key, until: s.now().Add(s.relock)}
	for i := range s.accounts {
		if s.accounts[i].Path == path {
			s.accounts[i].Address, s.accounts[i].Verified, s.accounts[i].Unnamed = addr, true, false
		}
	}
}

// decryptFile reads, pre-checks and decrypts a keystore file. Decryption is
// given the checked parameters only, never the file's JSON.
func decryptFile(path, passphrase string) (key *secp256k1.PrivateKey, addr common.Address, kf keyFile, err error) {
	if kf, err = checkFile(path); err != nil {
		return nil, addr, kf, err
	}
	// The pre-check makes a panic in go-ethereum's decryption unreachable
	// for every case we know; this is the last line of defence.
	defer func() {
		if r := recover(); r != nil {
			key, err = nil, fmt.Errorf("%s: %w: the decryption failed (%v)", filepath.Base(path), ErrMalformed, r)
		}
	}()
	plain, err := gethkeystore.DecryptDataV3(kf.crypto, passphrase)
	if errors.Is(err, gethkeystore.ErrDecrypt) {
		return nil, addr, kf, fmt.Errorf("%s: %w", filepath.Base(path), ErrWrongPassphrase)
	}
	if err != nil {
		return nil, addr, kf, fmt.Errorf("%s: %w: %v", filepath.Base(path), ErrMalformed, err)
	}
	defer clear(plain)
	key, addr, err = secretKey(plain)
	if err != nil {
		return nil, addr, kf, fmt.Errorf("%s: %w: not a secp256k1 key (%v)", filepath.Base(path), ErrMalformed, err)
	}
	return key, addr, kf, nil
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

// SignHash signs a 32-byte hash: 65 bytes, V 0 or 1. A signature gives
// the account its whole relock time again: the timeout is for an account
// left alone, not one in use (a claim and a stake sign four times in a
// few minutes of reading).
func (s *Store) SignHash(addr common.Address, hash []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.key(addr)
	if u == nil {
		return nil, fmt.Errorf("%s: %w", addr.Hex(), ErrLocked)
	}
	sig, err := sign(u.key, hash)
	if err == nil {
		u.until = s.now().Add(s.relock)
	}
	return sig, err
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

// CheckFile reports whether path is a keystore file allot would decrypt,
// without asking for its passphrase: a file that is not one is said so
// before anyone types a secret for it.
func CheckFile(path string) error {
	_, err := checkFile(path)
	return err
}

func checkFile(path string) (keyFile, error) {
	data, err := readFile(path)
	if err != nil {
		// The file is named once: "key.json: no such file or directory",
		// not again by the os package's "stat /path/to/key.json: ...".
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return keyFile{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	kf, err := precheck(data)
	if err != nil {
		return kf, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return kf, nil
}

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/config"
	"allot/wallet/keystore"
)

// keystoreFlags declares how a command finds the keystore and a passphrase.
type keystoreFlags struct {
	dir            string
	passphraseFile string
}

// declareKeystore declares --keystore and --passphrase-file on fs, parsed
// into k.
func declareKeystore(fs *flag.FlagSet, k *keystoreFlags) {
	declareKeystoreDir(fs, k)
	fs.StringVar(&k.passphraseFile, "passphrase-file", "", "read the passphrase from the first line of `FILE` (else $ALLOT_PASSPHRASE, else a prompt)")
}

// declareKeystoreDir is declareKeystore for a command that reads no
// passphrase: --passphrase-file would be taken and do nothing.
func declareKeystoreDir(fs *flag.FlagSet, k *keystoreFlags) {
	fs.StringVar(&k.dir, "keystore", "", "keystore `DIR` (default: the profile's keystore, else ~/.ethereum/keystore)")
}

// open opens the keystore: the flag, the profile's (which is the embedded
// sandbox's demo keystore), or go-ethereum's default.
func (k keystoreFlags) open(ctx context.Context, e *env) (*keystore.Store, error) {
	dir := k.dir
	if dir == "" {
		var err error
		if dir, err = e.keystoreDir(ctx); err != nil {
			return nil, err
		}
	}
	return keystore.Open(dir)
}

// temporary says the keystore opened is the embedded sandbox's demo
// keystore, written to a temporary folder for this command alone: its
// files are gone once it ends.
func (k keystoreFlags) temporary(e *env) bool {
	return k.dir == "" && e.sess != nil && e.sess.Sandbox
}

// keystoreDir is the profile's keystore, read from the configuration alone:
// a keystore needs no API key, so a profile whose key is not in the
// environment still lists its accounts. Without a configuration (or with
// --sandbox) it is the embedded sandbox's demo keystore.
func (e *env) keystoreDir(ctx context.Context) (string, error) {
	if !e.sandbox {
		cfg, err := config.Load(e.configPath)
		switch {
		case err == nil:
			p, err := cfg.Profile(e.profile)
			if err != nil {
				return "", err
			}
			return p.KeystoreDir()
		case !errors.Is(err, config.ErrNotFound):
			return "", err
		}
	}
	s, err := e.open(ctx, opening{})
	if err != nil {
		return "", err
	}
	return s.Profile.KeystoreDir()
}

func (k keystoreFlags) source(e *env) keystore.PassphraseSource {
	stdin, _ := e.Stdin.(*os.File)
	return keystore.PassphraseSource{File: k.passphraseFile, Getenv: e.Getenv, Stdin: stdin, Prompt: e.Stderr, Terminal: e.readSecret}
}

func (k keystoreFlags) passphrase(e *env, prompt string) (string, error) {
	return keystore.ReadPassphrase(k.source(e), prompt)
}

// signingAccount is the keystore account a command signs with. It is
// unlocked on first use, with a passphrase from the usual sources (never a
// flag's value), and locked again, its key zeroed, when the command ends.
type signingAccount struct {
	e       *env
	flags   keystoreFlags
	store   *keystore.Store
	address common.Address
	signer  *keystore.Signer // nil until unlocked
}

// parseAddress reads the address of flag --name, which is required.
func parseAddress(name, v string) (common.Address, error) {
	if v == "" {
		return common.Address{}, usagef("--%s ADDR is required", name)
	}
	if err := api.CheckAddress("--"+name, v); err != nil {
		return common.Address{}, usageError{msg: err.Error()}
	}
	return common.HexToAddress(v), nil
}

// openAccount opens the keystore and finds addr in it, so that a missing
// account is reported before anything is asked of the service.
func openAccount(ctx context.Context, e *env, ks keystoreFlags, addr common.Address) (*signingAccount, error) {
	store, err := ks.open(ctx, e)
	if err != nil {
		return nil, err
	}
	if !store.MayHold(addr) {
		return nil, fmt.Errorf("%w: %s is not in %s (see 'allot account list')", keystore.ErrNoAccount, addr.Hex(), store.Dir())
	}
	// The passphrase is read once the calls are checked; where it will
	// come from is checked now, before any request is sent.
	if err := ks.source(e).Check(); err != nil {
		return nil, err
	}
	return &signingAccount{e: e, flags: ks, store: store, address: addr}, nil
}

// unlock asks for the passphrase and unlocks the account, once.
func (a *signingAccount) unlock() (*keystore.Signer, error) {
	if a.signer != nil {
		return a.signer, nil
	}
	pass, err := a.flags.passphrase(a.e, "Passphrase of "+a.address.Hex()+": ")
	if err != nil {
		return nil, err
	}
	if err := a.store.Unlock(a.address, pass); err != nil {
		return nil, fmt.Errorf("unlock %s: %w", a.address.Hex(), err)
	}
	a.signer = a.store.Signer(a.address)
	return a.signer, nil
}

// lock forgets the key.
func (a *signingAccount) lock() { a.store.Lock(a.address) }

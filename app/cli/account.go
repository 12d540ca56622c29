package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"unicode/utf8"

	"allot/internal/sanitize"
	"allot/wallet/keystore"
)

// minPassphrase is the length below which account new warns: a short
// passphrase falls to a guessing attack on a stolen file.
const minPassphrase = 8

var accountListCommand = command{
	name:    "account list",
	args:    "[--keystore DIR] [-o json]",
	summary: "list the accounts of the keystore",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var ks keystoreFlags
		var out format
		declareKeystoreDir(fs, &ks)
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			store, err := ks.open(ctx, e)
			if err != nil {
				return err
			}
			for _, p := range store.Problems() {
				fmt.Fprintf(e.Stderr, "allot: skipped %s\n", sanitize.Line(p.Error()))
			}
			return writeAccounts(e.Stdout, store, ks.temporary(e), out)
		}
	},
}

// accountRow is an account as account list shows it.
type accountRow struct {
	// Address is empty for a file that names none (foundry's layout):
	// only unlocking it tells.
	Address string `json:"address"`
	File    string `json:"file,omitempty"`
}

// writeAccounts lists the accounts of store. The embedded sandbox's demo
// keystore (temporary) is gone when the command ends: its files are not
// named, as nothing could open them.
func writeAccounts(w io.Writer, store *keystore.Store, temporary bool, out format) error {
	var rows []accountRow
	for _, a := range store.Accounts() {
		r := accountRow{Address: a.Address.Hex(), File: a.Path}
		if temporary {
			r.File = ""
		}
		if a.Unnamed {
			r.Address = ""
		}
		rows = append(rows, r)
	}
	if out == formatJSON {
		var dir any = store.Dir()
		if temporary {
			dir = nil
		}
		return writeJSON(w, map[string]any{"keystore": dir, "accounts": rows})
	}
	if temporary {
		t := newTable(w, "ADDRESS")
		for _, r := range rows {
			t.row(r.Address)
		}
		if err := t.flush(); err != nil {
			return err
		}
		_, err := fmt.Fprintln(w, sandboxAccountsNote)
		return err
	}
	if len(rows) == 0 {
		fmt.Fprintf(w, "no accounts in %s\n", sanitize.Line(store.Dir()))
		return nil
	}
	t := newTable(w, "ADDRESS", "FILE")
	for _, r := range rows {
		if r.Address == "" {
			r.Address = "(known once unlocked)"
		}
		t.row(r.Address, r.File)
	}
	return t.flush()
}

// sandboxAccountsNote follows the embedded sandbox's demo accounts.
const sandboxAccountsNote = "These are the embedded sandbox's demo accounts (passphrases allot-demo-0, allot-demo-1, ...): " +
	"their keystore lasts as long as one command. To keep their files, serve the sandbox with `allot sandbox --keystore-dir DIR`."

var accountNewCommand = command{
	name:    "account new",
	args:    "[--keystore DIR] [--light] [--passphrase-file FILE]",
	summary: "create an account in the keystore (standard scrypt)",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var ks keystoreFlags
		declareKeystore(fs, &ks)
		light := fs.Bool("light", false, "use light scrypt: fast and weak, for tests and demos only")
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			store, err := ks.open(ctx, e)
			if err != nil {
				return err
			}
			pass, err := keystore.NewPassphrase(ks.source(e), "Passphrase for the new account: ")
			if errors.Is(err, keystore.ErrPassphraseMismatch) {
				return fmt.Errorf("account new: %w: nothing was created", err)
			}
			if err != nil {
				return err
			}
			if pass == "" {
				return usagef("account new: the passphrase must not be empty")
			}
			if n := utf8.RuneCountInString(pass); n < minPassphrase {
				fmt.Fprintf(e.Stderr, "allot: warning: the passphrase has %d characters: anyone who gets the file can guess it; use %d or more (a few words are best)\n", n, minPassphrase)
			}
			acct, err := store.New(pass, *light)
			if err != nil {
				return err
			}
			return fields(e.Stdout, "address", acct.Address.Hex(), "file", acct.Path)
		}
	},
}

var accountImportCommand = command{
	name:    "account import",
	args:    "KEYFILE [--keystore DIR] [--passphrase-file FILE]",
	summary: "copy a V3 keystore file into the keystore, after checking its passphrase",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var ks keystoreFlags
		declareKeystore(fs, &ks)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one keystore file")
			}
			if err := keystore.CheckFile(args[0]); err != nil {
				return fmt.Errorf("account import: %w", err)
			}
			store, err := ks.open(ctx, e)
			if err != nil {
				return err
			}
			pass, err := ks.passphrase(e, "Passphrase of the file: ")
			if err != nil {
				return err
			}
			// Decrypting may take seconds (scrypt): say so, and that
			// ctrl+c stops it.
			fmt.Fprintf(e.Stderr, "Decrypting %s (this may take a few seconds)...\n", args[0])
			acct, err := store.Import(args[0], pass, "", false)
			if err != nil {
				return err
			}
			return fields(e.Stdout, "address", acct.Address.Hex(), "file", acct.Path)
		}
	},
}

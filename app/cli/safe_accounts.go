package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/core/session"
	"allot/internal/sanitize"
)

// The Safes a profile works with (safes = [...] in its file): added once
// read from the chain as a canonical Safe, listed with their owners,
// threshold and nonce, as the dashboard's accounts list them.

var safeAddCommand = command{
	name:     "safe add",
	args:     "SAFE",
	summary:  "list a Safe in the profile, once the chain shows it is a canonical Safe 1.3.0 or 1.4.1",
	operands: [][2]string{{"SAFE", "the Safe's address (0x and 40 hex digits; checksummed when in mixed case)"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(ctx context.Context, args []string) error {
			addr, err := safeOperand(args)
			if err != nil {
				return err
			}
			s, err := e.open(ctx, opening{chain: "safe add"})
			if err != nil {
				return err
			}
			info, listed, err := s.SafeToAdd(ctx, addr)
			var refused session.RefusedSafe
			switch {
			case errors.As(err, &refused):
				return checkFailed{"safe add: " + refused.Error()}
			case err != nil:
				return err
			case listed:
				fmt.Fprintf(e.Stdout, "profile %q lists the Safe %s already (%s)\n", s.Name, addr.Hex(), s.ConfigPath)
				return nil
			}
			if err := s.ListSafe(addr, false); err != nil {
				return err
			}
			fmt.Fprintf(e.Stdout, "listed the Safe %s in profile %q (%s): %s, %d of its %d owners sign\n",
				addr.Hex(), s.Name, s.ConfigPath, info.Kind, info.Threshold, len(info.Owners))
			return nil
		}
	},
}

var safeRemoveCommand = command{
	name:     "safe remove",
	args:     "SAFE",
	summary:  "take a Safe out of the profile's list (the Safe itself is not touched)",
	operands: [][2]string{{"SAFE", "the Safe's address, as 'allot safe list' shows it"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(ctx context.Context, args []string) error {
			addr, err := safeOperand(args)
			if err != nil {
				return err
			}
			s, err := e.open(ctx, opening{})
			if err != nil {
				return err
			}
			// No chain read: a Safe that no longer reads as one must
			// still be removable.
			if err := s.ListSafe(addr, true); err != nil {
				return err
			}
			fmt.Fprintf(e.Stdout, "took the Safe %s out of profile %q (%s)\n", addr.Hex(), s.Name, s.ConfigPath)
			return nil
		}
	},
}

var safeListCommand = command{
	name:    "safe list",
	args:    "[--keystore DIR] [-o json]",
	summary: "show each Safe the profile lists: threshold, owners, nonce, and which owners' keys the keystore holds",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var ks keystoreFlags
		var out format
		declareKeystoreDir(fs, &ks)
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			s, err := e.open(ctx, opening{chain: "safe list"})
			if err != nil {
				return err
			}
			accounts, err := s.ReadSafes(ctx)
			if err != nil {
				return err
			}
			store, err := ks.open(ctx, e)
			if err != nil {
				return err
			}
			held := map[common.Address]bool{}
			for _, a := range store.Accounts() {
				held[a.Address] = true
			}
			if err := writeSafeList(e.Stdout, accounts, held, out); err != nil {
				return err
			}
			if out != formatJSON {
				sayListed(e.Stdout, s.Session, len(accounts))
			}
			return safeListStatus(accounts)
		}
	},
}

// safeOperand reads the one Safe address a command takes.
func safeOperand(args []string) (common.Address, error) {
	if len(args) != 1 {
		return common.Address{}, usagef("takes one Safe address")
	}
	addr, err := config.ParseAddress(args[0])
	if err != nil {
		return common.Address{}, usagef("%v", err)
	}
	return addr, nil
}

// safeListed is a Safe as safe list -o json writes it: safe show's fields,
// or why there are none.
type safeListed struct {
	Safe string `json:"safe"`
	// Refused: a check failed, and it is no Safe allot works with.
	Refused string `json:"refused,omitempty"`
	// Error: the node could not answer.
	Error string `json:"error,omitempty"`
	*safeJSON
}

// writeSafeList writes each Safe as safe show does, one after the other,
// and in place of one that could not be read, why.
func writeSafeList(w io.Writer, accounts []session.SafeAccount, held map[common.Address]bool, out format) error {
	if out == formatJSON {
		list := make([]safeListed, 0, len(accounts))
		for _, a := range accounts {
			v := safeListed{Safe: a.Address.Hex()}
			switch {
			case a.Refused():
				v.Refused = sanitize.Line(a.Err.Error())
			case a.Err != nil:
				v.Error = sanitize.Line(a.Err.Error())
			default:
				v.safeJSON = safeAsJSON(a.Info, held)
			}
			list = append(list, v)
		}
		return writeJSON(w, list)
	}
	for i, a := range accounts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		var err error
		switch {
		case a.Refused():
			err = fields(w, "Safe", a.Address.Hex(), "Refused", "no Safe allot works with: "+a.Err.Error())
		case a.Err != nil:
			err = fields(w, "Safe", a.Address.Hex(), "Not read", a.Err.Error())
		default:
			err = writeSafe(w, a.Info, held, out)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sayListed closes the table: how many, or how to list one.
func sayListed(w io.Writer, s *session.Session, n int) {
	switch {
	case n > 0:
		fmt.Fprintf(w, "\n%d Safe(s) in profile %q\n", n, s.Name)
	case s.CanPin():
		fmt.Fprintf(w, "profile %q lists no Safes: allot safe add SAFE lists one\n", s.Name)
	default:
		fmt.Fprintf(w, "profile %q lists no Safes (the embedded sandbox's profile is its own: list Safes in a profile of a configuration file)\n", s.Name)
	}
}

// safeListStatus is the list's exit: a Safe refused is a check that
// failed (exit 3), one the node could not read an error, once every
// other one is shown.
func safeListStatus(accounts []session.SafeAccount) error {
	var refused, unread int
	for _, a := range accounts {
		switch {
		case a.Refused():
			refused++
		case a.Err != nil:
			unread++
		}
	}
	switch {
	case refused > 0:
		return checkFailed{fmt.Sprintf("safe list: %d of the profile's %d Safes are no Safe allot works with", refused, len(accounts))}
	case unread > 0:
		return fmt.Errorf("safe list: %d of the profile's %d Safes could not be read", unread, len(accounts))
	}
	return nil
}

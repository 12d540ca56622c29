package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"

	"allot/internal/isotime"
	"allot/internal/sanitize"
	"allot/wallet"
)

// signInAs opens the session, unlocks the keystore account --account
// names and signs in with it: what the portal commands do before their
// own call. lock forgets the unlocked key; the caller defers it.
func (e *env) signInAs(ctx context.Context, ks keystoreFlags, account string) (portal *wallet.Portal, sess wallet.Session, lock func(), err error) {
	addr, err := parseAddress("account", account)
	if err != nil {
		return nil, wallet.Session{}, nil, err
	}
	s, err := e.open(ctx, opening{write: true})
	if err != nil {
		return nil, wallet.Session{}, nil, err
	}
	acct, err := openAccount(ctx, e, ks, addr)
	if err != nil {
		return nil, wallet.Session{}, nil, err
	}
	if portal, sess, err = e.signIn(ctx, s, acct); err != nil {
		acct.lock()
		return nil, wallet.Session{}, nil, err
	}
	return portal, sess, acct.lock, nil
}

// signIn signs in to the portal as acct: it shows the exact sign-in message
// on stderr, unlocks the account, records the message in the journal and
// only then signs and sends it.
func (e *env) signIn(ctx context.Context, s *opened, acct *signingAccount) (*wallet.Portal, wallet.Session, error) {
	portal, err := s.Portal()
	if err != nil {
		return nil, wallet.Session{}, err
	}
	msg, err := portal.Prepare(acct.address)
	if err != nil {
		return nil, wallet.Session{}, fmt.Errorf("sign in: %w", err)
	}
	text := msg.String()
	fmt.Fprintf(e.Stderr, "Sign-in message (EIP-4361) that %s will sign:\n-----\n%s\n-----\n",
		acct.address.Hex(), sanitize.Block(text))
	signer, err := acct.unlock()
	if err != nil {
		return nil, wallet.Session{}, err
	}
	sess, err := s.rec.SignIn(ctx, portal, text, signer)
	if err != nil {
		return nil, wallet.Session{}, err
	}
	return portal, sess, nil
}

var signinCommand = command{
	name:    "signin",
	args:    "--account ADDR [--show-token] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary: "sign in to the claim portal with a keystore account (EIP-4361)",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		account := fs.String("account", "", "keystore account `ADDR` that signs in (required)")
		showToken := fs.Bool("show-token", false, "print the access token too (it grants the portal session: keep it secret)")
		var ks keystoreFlags
		declareKeystore(fs, &ks)
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			portal, sess, lock, err := e.signInAs(ctx, ks, *account)
			if err != nil {
				return err
			}
			defer lock()
			var token string
			if *showToken {
				if token, err = portal.RevealToken(); err != nil {
					return err
				}
			}
			expires := isotime.Format(sess.Expiration)
			if *out == formatJSON {
				return writeJSON(e.Stdout, struct {
					Wallet      string `json:"wallet"`
					Expiration  string `json:"expiration"`
					AccessToken string `json:"accessToken,omitempty"`
				}{sess.Wallet.Hex(), expires, token})
			}
			pairs := []string{"wallet", sess.Wallet.Hex(), "expires", expires}
			if token != "" {
				pairs = append(pairs, "access token", token)
			}
			return fields(e.Stdout, pairs...)
		}
	},
}

var submissionCommand = command{
	name:    "submission",
	args:    "--account ADDR [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary: "sign in to the claim portal and list the account's submission accounts",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		account := fs.String("account", "", "keystore account `ADDR` that signs in (required)")
		var ks keystoreFlags
		declareKeystore(fs, &ks)
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			portal, sess, lock, err := e.signInAs(ctx, ks, *account)
			if err != nil {
				return err
			}
			defer lock()
			res, err := portal.SubmissionAccounts(ctx)
			if err != nil {
				return err
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, res)
			}
			claimWallet := "(not named)"
			if res.ClaimWallet != nil {
				claimWallet = *res.ClaimWallet
			}
			if err := fields(e.Stdout,
				"wallet", sess.Wallet.Hex(),
				"submitted", strconv.FormatBool(res.Submitted),
				"humanity passed", strconv.FormatBool(res.PohPassed),
				"claim wallet", claimWallet,
			); err != nil {
				return err
			}
			if len(res.Accounts) == 0 {
				fmt.Fprintln(e.Stdout, "no submission accounts")
				return nil
			}
			fmt.Fprintln(e.Stdout)
			t := newTable(e.Stdout, "ACCOUNT", "TYPE", "ELIGIBLE", "DESCRIPTION")
			for _, a := range res.Accounts {
				description := ""
				if a.Description != nil {
					description = *a.Description
				}
				t.row(a.Value, a.Type, strconv.FormatBool(a.IsEligible), description)
			}
			return t.flush()
		}
	},
}

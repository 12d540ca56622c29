package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

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

var signinCommand = portalCommand("signin", " [--show-token]", "sign in to the claim portal with a keystore account (EIP-4361)",
	func(fs *flag.FlagSet) portalAction {
		showToken := fs.Bool("show-token", false, "print the access token too (it grants the portal session: keep it secret)")
		return func(ctx context.Context, w io.Writer, portal *wallet.Portal, sess wallet.Session, out format) error {
			var token string
			if *showToken {
				var err error
				if token, err = portal.RevealToken(); err != nil {
					return err
				}
			}
			expires := isotime.Format(sess.Expiration)
			if out == formatJSON {
				return writeJSON(w, struct {
					Wallet      string `json:"wallet"`
					Expiration  string `json:"expiration"`
					AccessToken string `json:"accessToken,omitempty"`
				}{sess.Wallet.Hex(), expires, token})
			}
			pairs := []string{"wallet", sess.Wallet.Hex(), "expires", expires}
			if token != "" {
				pairs = append(pairs, "access token", token)
			}
			return fields(w, pairs...)
		}
	})

var submissionCommand = portalCommand("submission", "", "sign in to the claim portal and list the account's submission accounts",
	func(fs *flag.FlagSet) portalAction {
		return func(ctx context.Context, w io.Writer, portal *wallet.Portal, sess wallet.Session, out format) error {
			res, err := portal.SubmissionAccounts(ctx)
			if err != nil {
				return err
			}
			if out == formatJSON {
				return writeJSON(w, res)
			}
			claimWallet := "(not named)"
			if res.ClaimWallet != nil {
				claimWallet = *res.ClaimWallet
			}
			if err := fields(w,
				"wallet", sess.Wallet.Hex(),
				"submitted", yesNo(res.Submitted),
				"humanity passed", yesNo(res.PohPassed),
				"claim wallet", claimWallet,
			); err != nil {
				return err
			}
			if len(res.Accounts) == 0 {
				fmt.Fprintln(w, "no submission accounts")
				return nil
			}
			fmt.Fprintln(w)
			t := newTable(w, "ACCOUNT", "TYPE", "ELIGIBLE", "DESCRIPTION")
			for _, a := range res.Accounts {
				description := ""
				if a.Description != nil {
					description = *a.Description
				}
				t.row(a.Value, a.Type, yesNo(a.IsEligible), description)
			}
			return t.flush()
		}
	})

// portalAction is what a portal command does once signed in, writing
// what it found to w.
type portalAction func(ctx context.Context, w io.Writer, portal *wallet.Portal, sess wallet.Session, out format) error

// portalCommand is a command that signs in to the claim portal with the
// keystore account --account names, then acts: declare declares the
// command's own flags (their synopsis is flags) and returns the action.
func portalCommand(name, flags, summary string, declare func(fs *flag.FlagSet) portalAction) command {
	return command{
		name:    name,
		args:    "--account ADDR" + flags + " [--keystore DIR] [--passphrase-file FILE] [-o json]",
		summary: summary,
		flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
			var account string
			var ks keystoreFlags
			var out format
			fs.StringVar(&account, "account", "", "keystore account `ADDR` that signs in (required)")
			declareKeystore(fs, &ks)
			declareOutput(fs, &out)
			act := declare(fs)
			return func(ctx context.Context, args []string) error {
				if err := noArgs(args); err != nil {
					return err
				}
				portal, sess, lock, err := e.signInAs(ctx, ks, account)
				if err != nil {
					return err
				}
				defer lock()
				return act(ctx, e.Stdout, portal, sess, out)
			}
		},
	}
}

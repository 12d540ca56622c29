package cli

import (
	"context"
	"flag"
	"fmt"

	"allot/wallet/safe/proposal"
)

// safeSignCommand builds `allot safe sign FILE --owner KEY`: another
// owner's signature of a proposal, after the same review as the first.
var safeSignCommand = command{
	name:     "safe sign",
	args:     "FILE --owner KEY [--yes] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary:  "review a Safe proposal under the signing policy and add an owner's signature to it",
	operands: [][2]string{{"FILE", "the proposal file, as `allot stake|claim --owner` or `allot safe import` wrote it"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var owner string
		var yes bool
		var ks keystoreFlags
		var out format
		fs.StringVar(&owner, "owner", "", "the keystore account `KEY` of an owner of the Safe, who signs (required)")
		fs.BoolVar(&yes, "yes", false, "sign without asking; needed when stdin is not a terminal")
		declareKeystore(fs, &ks)
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one proposal file")
			}
			ownerAddr, err := parseAddress("owner", owner)
			if err != nil {
				return err
			}
			p, s, info, err := e.openProposal(ctx, "safe sign", args[0])
			if err != nil {
				return err
			}
			if state, why := p.StateAt(info); state == proposal.Stale || state == proposal.Changed || state == proposal.Executed {
				return checkFailed{fmt.Sprintf("safe sign: not signed: %s: %s", state, why)}
			}
			if !info.IsOwner(ownerAddr) {
				return fmt.Errorf("%s is not an owner of the Safe %s", ownerAddr.Hex(), p.Safe.Hex())
			}
			if p.Signed(ownerAddr) {
				return fmt.Errorf("%s has signed this proposal already", ownerAddr.Hex())
			}
			acct, err := openAccount(ctx, e, ks, ownerAddr)
			if err != nil {
				return err
			}
			defer acct.lock()
			if _, err := e.reviewSafeTx(ctx, s, info, p); err != nil {
				return err
			}
			if err := e.ownerSign(s.rec, p, acct, yes); err != nil {
				return err
			}
			if err := e.saveProposal(s, p, args[0]); err != nil {
				return err
			}
			return writeProposal(e.Stdout, p, info, out)
		}
	},
}

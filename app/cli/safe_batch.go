package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"allot/core/session"
	"allot/wallet/safe/proposal"
)

// safeBatchCommand builds `allot safe batch --account SAFE --owner KEY
// --claim ID --stake POOL_ID=AMOUNT --transfer ID=ADDR ...`: several acts
// of a Safe in one Safe transaction, through the MultiSendCallOnly, in the
// order the flags give them. Each act's calls are built as the act alone
// builds them and checked by the policy of that act alone
// (wallet.CheckBatch); one review lists every call and the totals, and
// one owner signs the proposal.
var safeBatchCommand = command{
	name:    "safe batch",
	args:    "--account SAFE --owner KEY [--claim ID]... [--stake POOL_ID=AMOUNT]... [--transfer ID=ADDR]... [--proposal FILE] [--tx-builder FILE] [--multisend ADDR] [--yes] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary: "make several acts of a Safe (claims, stakes, transfers) one Safe transaction: each checked by its own policy, one review with the totals, a proposal signed by an owner",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var account string
		var acts []batchAct
		var f safeActFlags
		var yes bool
		var ks keystoreFlags
		var out format
		fs.StringVar(&account, "account", "", "the Safe `SAFE` whose acts they are (required)")
		fs.Func("claim", "claim all that is claimable of the allocation `ID` (anyone's: the tokens go to its holder); repeat for more", func(v string) error {
			return addBatchAct(&acts, proposal.OpClaim, v)
		})
		fs.Func("stake", "stake the Safe's tokens, `POOL_ID=AMOUNT`: AMOUNT tokens in the pool (an approve first when its allowance is short); repeat for more", func(v string) error {
			return addBatchAct(&acts, proposal.OpStake, v)
		})
		fs.Func("transfer", "hand on an allocation the Safe holds, `ID=ADDR`: ADDR becomes its withdrawal address; repeat for more", func(v string) error {
			return addBatchAct(&acts, proposal.OpTransfer, v)
		})
		declareSafeAct(fs, &f)
		fs.BoolVar(&yes, "yes", false, "sign without asking; needed when stdin is not a terminal")
		declareKeystore(fs, &ks)
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			if f.owner == "" {
				return usagef("--owner KEY is required: an owner of the Safe signs the batch")
			}
			if len(acts) == 0 {
				return usagef("name the acts: --claim ID, --stake POOL_ID=AMOUNT, --transfer ID=ADDR")
			}
			return e.safeBatch(ctx, account, acts, f, ks, yes, out)
		}
	},
}

// batchAct is one act of `allot safe batch`, as its flag gave it.
type batchAct struct{ session.BatchAct }

func (a batchAct) String() string { return "--" + a.BatchAct.String() }

// addBatchAct parses one act's flag value and adds it to acts.
func addBatchAct(acts *[]batchAct, op, v string) error {
	if len(*acts) >= proposal.MaxCalls {
		return fmt.Errorf("more than %d acts: a Safe proposal holds at most %d calls", proposal.MaxCalls, proposal.MaxCalls)
	}
	a, err := session.ParseBatchAct(op, v)
	if err != nil {
		return err
	}
	*acts = append(*acts, batchAct{a})
	return nil
}

// safeBatch proposes the acts as one Safe transaction
// (session.ProposeBatch), an act that cannot be built named by its flag.
func (e *env) safeBatch(ctx context.Context, account string, acts []batchAct, f safeActFlags, ks keystoreFlags, yes bool, out format) error {
	multiSend, err := f.check(txFlags{})
	if err != nil {
		return err
	}
	s, info, owner, err := openSafeAct(ctx, e, "safe batch", account, f, ks, nil)
	if err != nil {
		return err
	}
	defer owner.lock()
	batch := make([]session.BatchAct, len(acts))
	for i, a := range acts {
		batch[i] = a.BatchAct
	}
	r, err := s.ProposeBatch(ctx, s.rec, info, owner.address, batch, multiSend)
	var failed *session.BatchActError
	if errors.As(err, &failed) {
		return fmt.Errorf("%s: %w", acts[failed.N-1], withDemoAllocations(s, failed.Err))
	}
	if err != nil {
		return err
	}
	return e.signProposed(s, r, owner, f, yes, out)
}

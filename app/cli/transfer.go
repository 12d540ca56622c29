package cli

import (
	"context"
	"flag"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/wallet/safe/proposal"
)

// transferCommand builds `allot transfer ALLOCATION_ID --to ADDR`: a
// transfer of beneficiary (docs/deployment.md D18), which the
// allocation's current withdrawal address sends when the leaf is
// transferableByBeneficiary; every later claim of the allocation pays
// --to. The service builds none: allot builds it from
// the allocation's proof, under the signing policy (wallet.CheckTransfer),
// for a key (--account) or a Safe (--account SAFE --owner KEY).
var transferCommand = command{
	name:     "transfer",
	args:     "ALLOCATION_ID --to ADDR --account ADDR [--send [--wait] [--yes]] [--owner KEY [--proposal FILE] [--tx-builder FILE] [--multisend ADDR] [--yes]] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary:  "transfer an allocation to a new withdrawal address (its leaf must let its holder do it): its future tokens go there; sent by the key or the Safe it pays now",
	operands: [][2]string{{"ALLOCATION_ID", "the allocation whose future tokens go to --to"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var a transferArgs
		var safeAct safeActFlags
		fs.StringVar(&a.to, "to", "", "the new withdrawal address `ADDR`: every later claim pays it, not the account that transfers (required)")
		fs.StringVar(&a.account, "account", "", "the allocation's withdrawal address now: a keystore account `ADDR` that signs, or with --owner the Safe (required)")
		declareKeystore(fs, &a.ks)
		declareTx(fs, &a.tx)
		declareSafeAct(fs, &safeAct)
		declareOutput(fs, &a.out)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one allocation id")
			}
			a.allocation = args[0]
			if err := api.CheckUUID("allocation id", a.allocation); err != nil {
				return usageError{msg: err.Error()}
			}
			to, err := parseAddress("to", a.to)
			if err != nil {
				return err
			}
			if safeAct.owner != "" {
				return e.safeTransfer(ctx, a, to, safeAct)
			}
			return e.transfer(ctx, a, to)
		}
	},
}

// transferArgs is what `allot transfer` was asked, as its flags and
// argument say it.
type transferArgs struct {
	allocation string
	to         string
	account    string
	ks         keystoreFlags
	tx         txFlags
	out        format
}

// transfer signs the transfer with the key --account names, after the
// review the signing policy ends when it refuses, and as --send says
// sends it.
func (e *env) transfer(ctx context.Context, a transferArgs, to common.Address) error {
	if err := a.tx.check(e, "transfer"); err != nil {
		return err
	}
	holder, err := parseAddress("account", a.account)
	if err != nil {
		return err
	}
	s, err := e.open(ctx, opening{write: true, chain: "transfer"})
	if err != nil {
		return err
	}
	acct, err := openAccount(ctx, e, a.ks, holder)
	if err != nil {
		return err
	}
	defer acct.lock()
	calls, err := s.TransferCall(ctx, a.allocation, acct.address, to)
	if err != nil {
		return withDemoAllocations(s, err)
	}
	known, err := s.KnownContracts(ctx)
	if err != nil {
		return err
	}
	b := txBatch{subject: a.allocation, op: proposal.OpTransfer, ops: []string{proposal.OpTransfer}, calls: calls, known: known,
		check: s.TransferCheck(a.allocation, acct.address, to)}
	return e.transact(ctx, s, acct, b, a.tx, a.out)
}

// safeTransfer is `allot transfer ID --to ADDR --account SAFE --owner
// KEY`: the transfer sent by the Safe that holds the allocation, proposed
// and signed by one owner.
func (e *env) safeTransfer(ctx context.Context, a transferArgs, to common.Address, f safeActFlags) error {
	multiSend, err := f.check(a.tx)
	if err != nil {
		return err
	}
	s, info, owner, err := openSafeAct(ctx, e, "transfer", a.account, f, a.ks, nil)
	if err != nil {
		return err
	}
	defer owner.lock()
	r, err := s.ProposeTransfer(ctx, s.rec, info, owner.address, a.allocation, to, multiSend)
	if err != nil {
		return withDemoAllocations(s, err)
	}
	return e.signProposed(s, r, owner, f, a.tx.yes, a.out)
}

package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// safeExecCommand builds `allot safe exec FILE --account KEY`: the
// execTransaction of a proposal its owners signed, sent by any account,
// which pays its gas, on the signing path of every transaction (review,
// policy, journal, follow).
var safeExecCommand = command{
	name:     "safe exec",
	args:     "FILE --account KEY [--send [--wait] [--yes]] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary:  "execute a Safe proposal signed by enough owners: any keystore account sends execTransaction and pays its gas",
	operands: [][2]string{{"FILE", "the proposal file, signed by at least the Safe's threshold of owners"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var account string
		var ks keystoreFlags
		var tx txFlags
		var out format
		fs.StringVar(&account, "account", "", "the keystore account `KEY` that sends the transaction and pays its gas; it need not be an owner (required)")
		declareKeystore(fs, &ks)
		declareTx(fs, &tx)
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one proposal file")
			}
			if err := tx.check(e, "safe exec"); err != nil {
				return err
			}
			executor, err := parseAddress("account", account)
			if err != nil {
				return err
			}
			return e.safeExec(ctx, args[0], executor, ks, tx, out)
		}
	},
}

// openProposal reads the proposal in path, opens the session for a write
// on its chain (cmd names it) and reads its Safe from the chain.
func (e *env) openProposal(ctx context.Context, cmd, path string) (*proposal.Proposal, *opened, safe.Info, error) {
	p, err := readProposalFile(path)
	if err != nil {
		return nil, nil, safe.Info{}, err
	}
	s, err := e.open(ctx, opening{write: true, chain: cmd})
	if err != nil {
		return nil, nil, safe.Info{}, err
	}
	if s.Profile.ChainID != p.ChainID {
		return nil, nil, safe.Info{}, checkFailed{fmt.Sprintf("%s: the proposal is for chain %d, the profile's is %d", cmd, p.ChainID, s.Profile.ChainID)}
	}
	info, err := readSafeOn(ctx, s, cmd, p.Safe)
	if err != nil {
		return nil, nil, safe.Info{}, err
	}
	return p, s, info, nil
}

// safeExec reviews the proposal again, refuses it with the reason when the
// Safe could not execute it as signed, then signs and sends its
// execTransaction as transact does; once mined, the proposal records the
// transaction.
func (e *env) safeExec(ctx context.Context, path string, executor common.Address, ks keystoreFlags, tx txFlags, out format) error {
	p, s, info, err := e.openProposal(ctx, "safe exec", path)
	if err != nil {
		return err
	}
	if p.Executed != (common.Hash{}) {
		return checkFailed{fmt.Sprintf("safe exec: the proposal was executed by transaction %s", p.Executed.Hex())}
	}
	if err := p.Executable(info); err != nil {
		return checkFailed{fmt.Sprintf("safe exec: not executed: %v", err)}
	}
	acct, err := openAccount(ctx, e, ks, executor)
	if err != nil {
		return err
	}
	defer acct.lock()
	if _, err := e.reviewSafeTx(ctx, s, info, p); err != nil {
		return err
	}
	call, check, err := s.SafeExec(ctx, p, info, executor)
	if err != nil {
		return err
	}
	b := txBatch{subject: p.Hashes.SafeTx.Hex(), op: "safe exec", ops: []string{"safe exec"}, calls: []wallet.Call{call},
		known: map[common.Address]string{p.Safe: "the Safe"}, check: check}
	statuses, err := e.transactStatuses(ctx, s, acct, b, tx, out)
	if len(statuses) == 1 && statuses[0].State == wallet.StateSuccess {
		p.Executed = statuses[0].Hash
		if saveErr := e.saveProposal(s, p, path); saveErr != nil && err == nil {
			err = saveErr
		}
	}
	return err
}

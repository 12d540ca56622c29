package cli

import (
	"context"
	"flag"
	"fmt"
	"math/big"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/txbuilder"
)

// safeExportCommand builds `allot safe export FILE -o tx-builder`: a
// proposal's calls as a Transaction Builder file, with its checksum, for
// an owner who signs in Safe{Wallet}.
var safeExportCommand = command{
	name:     "safe export",
	args:     "FILE -o tx-builder",
	summary:  "write a Safe proposal's calls as a Safe{Wallet} Transaction Builder file, with its checksum, on stdout",
	operands: [][2]string{{"FILE", "the proposal file"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var to string
		fs.StringVar(&to, "o", "", "output `FORMAT`: tx-builder (required)")
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one proposal file")
			}
			if to != "tx-builder" {
				return usagef("-o tx-builder is required: the one format export writes")
			}
			p, err := readProposalFile(args[0])
			if err != nil {
				return err
			}
			return txbuilder.Write(e.Stdout, txBuilderBatch(p, time.Now()))
		}
	},
}

// txBuilderBatch is p's calls as a Transaction Builder batch made at now.
func txBuilderBatch(p *proposal.Proposal, now time.Time) txbuilder.Batch {
	b := txbuilder.Batch{ChainID: p.ChainID, CreatedAt: now, Safe: p.Safe,
		Name:        fmt.Sprintf("allot: %s of %s", p.Act.Op, p.Act.Subject),
		Description: fmt.Sprintf("safeTxHash %s at nonce %s, as allot reviewed it", p.Hashes.SafeTx.Hex(), p.Tx.Nonce)}
	if len(p.Signatures) > 0 {
		b.Owner = p.Signatures[0].Owner
	}
	for _, c := range p.Calls {
		v := c.Value
		if v == nil {
			v = new(big.Int)
		}
		b.Transactions = append(b.Transactions, txbuilder.Transaction{To: c.To, Value: v, Data: c.Data})
	}
	return b
}

// safeImportCommand builds `allot safe import TXBUILDER.json --safe SAFE
// --owner KEY --proposal OUT`: a teammate's Transaction Builder batch,
// its checksum checked, each call reviewed under the signing policy of
// the act it makes, signed by the owner as a proposal.
var safeImportCommand = command{
	name:     "safe import",
	args:     "TXBUILDER.json --safe SAFE --owner KEY [--proposal FILE] [--tx-builder FILE] [--multisend ADDR] [--yes] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary:  "review a Safe{Wallet} Transaction Builder file under the signing policy and make a signed proposal of it",
	operands: [][2]string{{"TXBUILDER.json", "a Transaction Builder file, its checksum intact"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var safeText string
		var f safeActFlags
		var yes bool
		var ks keystoreFlags
		var out format
		fs.StringVar(&safeText, "safe", "", "the Safe `SAFE` whose transactions the file holds (required)")
		declareSafeAct(fs, &f)
		fs.BoolVar(&yes, "yes", false, "sign without asking; needed when stdin is not a terminal")
		declareKeystore(fs, &ks)
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one Transaction Builder file")
			}
			multiSend, err := f.check(txFlags{})
			if err != nil {
				return err
			}
			b, err := readTxBuilder(args[0])
			if err != nil {
				return err
			}
			s, info, owner, err := openSafeAct(ctx, e, "safe import", safeText, f, ks, nil)
			if err != nil {
				return err
			}
			defer owner.lock()
			p, err := importedAct(ctx, s, info, b)
			if err != nil {
				return err
			}
			p.multiSend = multiSend
			fmt.Fprintf(e.Stderr, "Transaction Builder file %q: its checksum %s is its content's; %d call(s), each reviewed below.\n",
				sanitize.Line(b.Name), b.Checksum, len(b.Transactions))
			return e.propose(ctx, p, owner, f, yes, out)
		}
	},
}

// readTxBuilder reads a Transaction Builder file; one whose checksum is
// not its content's, or that is no such file, is a check that failed.
func readTxBuilder(path string) (txbuilder.Batch, error) {
	file, err := os.Open(path)
	if err != nil {
		return txbuilder.Batch{}, fmt.Errorf("open the Transaction Builder file: %w", err)
	}
	defer file.Close()
	b, err := txbuilder.Read(file)
	if err != nil {
		return b, checkFailed{fmt.Sprintf("%s: %v", sanitize.Line(path), err)}
	}
	return b, nil
}

// importedAct is the act a batch's calls make for the Safe, as allot
// knows acts (proposedAct): the batch must be for the profile's chain
// and, when it names one, for this Safe.
func importedAct(ctx context.Context, s *opened, info safe.Info, b txbuilder.Batch) (proposing, error) {
	p := proposing{s: s, info: info}
	if b.ChainID != s.Profile.ChainID {
		return p, checkFailed{fmt.Sprintf("safe import: the file is for chain %d, the profile's is %d", b.ChainID, s.Profile.ChainID)}
	}
	if b.Safe != (common.Address{}) && b.Safe != info.Address {
		return p, checkFailed{fmt.Sprintf("safe import: the file was made for the Safe %s, not %s", b.Safe.Hex(), info.Address.Hex())}
	}
	for _, t := range b.Transactions {
		p.calls = append(p.calls, safe.InnerCall{To: t.To, Value: t.Value, Data: t.Data})
	}
	act, err := proposedAct(ctx, s, info.Address, p.calls)
	if err != nil {
		return p, fmt.Errorf("safe import: %w", err)
	}
	p.act = act
	return p, nil
}

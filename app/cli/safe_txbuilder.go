package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/wallet/safe"
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
			return txbuilder.Write(e.Stdout, session.TxBuilderBatch(p, time.Now()))
		}
	},
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

// importedAct is the act a batch's calls make for the Safe
// (session.ImportedAct); a file that fails a check is a check that
// failed.
func importedAct(ctx context.Context, s *opened, info safe.Info, b txbuilder.Batch) (proposing, error) {
	a, err := s.ImportedAct(ctx, s.rec, info, b)
	var refused *session.TxBuilderRefusal
	switch {
	case errors.As(err, &refused):
		return proposing{}, checkFailed{"safe import: " + err.Error()}
	case err != nil:
		return proposing{}, fmt.Errorf("safe import: %w", err)
	}
	return proposing{s: s, info: info, act: a.Act, calls: a.Calls}, nil
}

// readTxBuilder reads a Transaction Builder file (session.ReadTxBuilder);
// one that fails its checks is a check that failed.
func readTxBuilder(path string) (txbuilder.Batch, error) {
	b, err := session.ReadTxBuilder(path)
	var refused *session.TxBuilderRefusal
	if errors.As(err, &refused) {
		return b, checkFailed{err.Error()}
	}
	return b, err
}

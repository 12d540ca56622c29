package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// safeActFlags are the flags that make a stake or a claim an act of a
// Safe: --account names the Safe, --owner the owner who proposes it.
type safeActFlags struct {
	owner, proposal, multiSend string
	// txBuilder is where to write the proposal's calls as a Transaction
	// Builder file too, for owners who sign in Safe{Wallet}.
	txBuilder string
}

func declareSafeAct(fs *flag.FlagSet, f *safeActFlags) {
	fs.StringVar(&f.owner, "owner", "", "make it an act of the Safe --account names: the keystore account `KEY` of one of its owners signs the Safe transaction and writes a proposal; `allot safe exec` sends it once enough owners signed")
	fs.StringVar(&f.proposal, "proposal", "", "with --owner: write the proposal to `FILE`, for the other owners (a copy is kept in the state directory)")
	fs.StringVar(&f.txBuilder, "tx-builder", "", "with --owner: also write the calls as a Safe{Wallet} Transaction Builder `FILE`, with its checksum (as `allot safe export -o tx-builder`)")
	fs.StringVar(&f.multiSend, "multisend", "", "with --owner: the MultiSendCallOnly `ADDR` a batch of calls is made through; its code must be a canonical MultiSendCallOnly's (default: the canonical deployment of the Safe's version, as Safe{Wallet} uses)")
}

// check refuses, for an act of a Safe, the flags of a key's act: the
// owners sign a proposal, and `allot safe exec` sends it. It returns the
// --multisend address, zero when not given (propose then takes the
// canonical one of the Safe's version).
func (f safeActFlags) check(tx txFlags) (common.Address, error) {
	if tx.send || tx.wait {
		return common.Address{}, usagef("--owner signs a proposal of the Safe, which is sent by `allot safe exec FILE --account KEY --send` once enough owners signed: no --send or --wait here")
	}
	if f.multiSend == "" {
		return common.Address{}, nil
	}
	return parseAddress("multisend", f.multiSend)
}

// proposing is a Safe's act on its way to a proposal: the session on the
// Safe's chain, the Safe as the chain holds it, the act and its calls.
type proposing struct {
	s         *opened
	info      safe.Info
	act       proposal.Act
	calls     []safe.InnerCall
	multiSend common.Address
}

// readSafeOn reads the Safe at addr on s's chain, as readSafe does.
func readSafeOn(ctx context.Context, s *opened, what string, addr common.Address) (safe.Info, error) {
	node, ok := s.Chain.(safe.Node)
	if !ok {
		return safe.Info{}, errors.New("the profile's node cannot read storage, where a Safe keeps its singleton")
	}
	info, err := safe.Read(ctx, node, addr)
	if errors.Is(err, safe.ErrNotSafe) || errors.Is(err, safe.ErrBadAnswer) {
		return info, checkFailed{fmt.Sprintf("%s: no Safe allot works with: %v", what, err)}
	}
	return info, err
}

// reviewSafeTx reviews the proposal prop of the Safe info (as read now)
// as an owner's signature waits for (session.ReviewSafeTx) and shows the
// review on stderr: each call the Safe makes, decoded; the Safe
// transaction and its three hashes; and the signing policy's check of all
// of it, which a refusal ends (journaled as any refusal).
func (e *env) reviewSafeTx(ctx context.Context, s *opened, info safe.Info, prop *proposal.Proposal) (*wallet.SafeApproval, error) {
	r, err := s.ReviewSafeTx(ctx, s.rec, info, prop)
	if err != nil {
		return nil, err
	}
	return e.showSafeReview(s, r)
}

// showSafeReview writes the review r on stderr; its refusal is the error.
func (e *env) showSafeReview(s *opened, r *session.SafeReview) (*wallet.SafeApproval, error) {
	tx, hashes := r.Proposal.Tx, r.Proposal.Hashes
	for i, d := range r.Decoded {
		printSummary(e.Stderr, i, len(r.Decoded), "the Safe's call", d)
	}
	how := "one call, made as it is"
	if tx.Operation == safe.DelegateCall {
		how = fmt.Sprintf("a delegatecall of multiSend to %s, which makes the %d calls above in order", tx.To.Hex(), len(r.Proposal.Calls))
	}
	fields(e.Stderr,
		"Safe transaction", how,
		"  Safe", fmt.Sprintf("%s on chain %d, nonce %s", r.Safe.Address.Hex(), s.Profile.ChainID, tx.Nonce),
		"  Domain hash", hashes.Domain.Hex(),
		"  Message hash", hashes.Message.Hex(),
		"  safeTxHash", hashes.SafeTx.Hex(),
	)
	fmt.Fprintln(e.Stderr, "  Compare these hashes with what Safe{Wallet} or your hardware wallet shows before you sign.")
	var refused *wallet.RefusedError
	if errors.As(r.Refusal, &refused) {
		fmt.Fprintln(e.Stderr, "REFUSED by the signing policy; nothing was signed:")
		for _, reason := range refused.Reasons {
			fmt.Fprintln(e.Stderr, "  - "+sanitize.Line(reason))
		}
		fmt.Fprintln(e.Stderr, "  pins read from "+sanitize.Line(s.PinsSource()))
		pinHint(e.Stderr, s, refused)
		return nil, r.Refusal
	}
	fmt.Fprintln(e.Stderr, "Checked by the signing policy:")
	var facts []string
	for _, l := range r.Approval.Facts {
		facts = append(facts, "  "+l.Label, l.Value)
	}
	fields(e.Stderr, facts...)
	return r.Approval, nil
}

// ownerSign asks, unless yes, and signs the proposal's safeTxHash with the
// owner's key: an EIP-712 signature, v 27 or 28, checked to recover to the
// owner before it is added.
func (e *env) ownerSign(rec *act.Recorder, p *proposal.Proposal, owner *signingAccount, yes bool) error {
	if !yes {
		if !e.terminal() {
			return usagef("stdin is not a terminal, so nothing can ask you to confirm: review without signing first, then add --yes")
		}
		if !e.confirm(fmt.Sprintf("Sign safeTxHash %s as %s?", p.Hashes.SafeTx.Hex(), owner.address.Hex())) {
			return errors.New("not signed: you did not answer yes")
		}
	}
	if _, err := owner.unlock(); err != nil {
		return err
	}
	return session.SignSafeTx(rec, owner.store, owner.address, p)
}

// saveProposal writes p to path, when one is given, and its copy to the
// state directory, where the dashboard finds the proposals of this
// machine: safe-proposals/SAFETXHASH.json. It says where on stderr.
func (e *env) saveProposal(s *opened, p *proposal.Proposal, path string) error {
	paths, err := s.SaveProposal(p, path)
	if err != nil {
		return err
	}
	if len(paths) > 0 {
		fmt.Fprintf(e.Stderr, "Proposal written to %s\n", sanitize.Line(paths[0]))
	}
	return nil
}

// propose makes p's proposal (session.ProposeSafeAct), shows its
// review, signs it as owner and saves it; the summary goes to stdout.
func (e *env) propose(ctx context.Context, p proposing, owner *signingAccount, f safeActFlags, yes bool, out format) error {
	a := session.SafeAct{Safe: p.info, Act: p.act, Calls: p.calls, MultiSend: p.multiSend}
	r, err := p.s.ProposeSafeAct(ctx, p.s.rec, a, owner.address)
	if err != nil {
		return err
	}
	return e.signProposed(p.s, r, owner, f, yes, out)
}

// signProposed shows the review r, signs its proposal as owner, the one
// shown, and saves it; the summary goes to stdout.
func (e *env) signProposed(s *opened, r *session.SafeReview, owner *signingAccount, f safeActFlags, yes bool, out format) error {
	if _, err := e.showSafeReview(s, r); err != nil {
		return err
	}
	prop := r.Proposal
	if err := e.ownerSign(s.rec, prop, owner, yes); err != nil {
		return err
	}
	if err := e.saveProposal(s, prop, f.proposal); err != nil {
		return err
	}
	if f.txBuilder != "" {
		if _, err := session.WriteTxBuilder(prop, f.txBuilder, time.Now()); err != nil {
			return err
		}
	}
	return writeProposal(e.Stdout, prop, r.Safe, out)
}

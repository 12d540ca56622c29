// Package proposal is a Safe transaction passed between its owners until
// it is executed: a file holding the Safe, its nonce, the calls as they
// were reviewed, the Safe transaction that makes them, its three hashes
// (what Safe{Wallet} and a hardware wallet show, for co-signers to
// compare) and the owners' signatures so far. Whoever holds the file can
// check every part of it against the others: a file whose transaction is
// not the one its calls make, whose hashes are not its transaction's, or
// with a signature that is not its owner's, is refused as it is read.
package proposal

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/safe"
)

// Version is the file format's version.
const Version = 1

// Bounds on a proposal: a treasury's batch is a few calls, its Safe a
// few owners.
const (
	MaxCalls    = 20
	MaxCallData = 64 << 10
	MaxFileSize = 2 << 20
)

// Act is what the owners were asked to approve, which the signing policy
// holds the calls to at each review: a stake of Amount (base units) in the
// pool Subject, a claim of the allocation Subject (Amount nil: all that
// is claimable), a transfer of the allocation Subject to the withdrawal
// address To, or a batch of these (Subject says which, in a few words;
// the policy finds each act from the calls and holds it to its own
// policy).
type Act struct {
	Op      string // OpStake, OpClaim, OpTransfer or OpBatch
	Subject string
	Amount  *big.Int
	To      common.Address
}

// The acts a proposal may hold.
const (
	OpStake    = "stake"
	OpClaim    = "claim"
	OpTransfer = "transfer"
	OpBatch    = "batch"
)

// Proposal is a Safe transaction and its owners' signatures so far.
type Proposal struct {
	ChainID uint64
	Safe    common.Address
	// SafeVersion, Owners and Threshold are the Safe as it was when the
	// proposal was made: a Safe whose owners or threshold changed since is
	// refused, for its owners to review the transaction again.
	SafeVersion string
	Owners      []common.Address
	Threshold   uint64
	Act         Act
	// Calls are the calls the Safe makes, as reviewed; MultiSend the
	// MultiSendCallOnly that makes them when there are several.
	Calls     []safe.InnerCall
	MultiSend common.Address
	Tx        safe.Tx
	Hashes    safe.Hashes
	// Signatures are the owners' so far, in the order they signed.
	Signatures []safe.Signature
	// Executed is the transaction that executed it, once allot saw it
	// mined; zero before.
	Executed common.Hash
}

// ErrInvalid is wrapped by every reason a proposal is not consistent.
var ErrInvalid = errors.New("invalid Safe proposal")

// New makes a proposal of calls for the Safe info on chainID, at the
// Safe's nonce, without signatures.
func New(chainID uint64, info safe.Info, act Act, calls []safe.InnerCall, multiSend common.Address) (*Proposal, error) {
	p := &Proposal{ChainID: chainID, Safe: info.Address, SafeVersion: info.Version, Owners: slices.Clone(info.Owners),
		Threshold: info.Threshold, Act: act, Calls: slices.Clone(calls)}
	if len(calls) > 1 {
		p.MultiSend = multiSend
	}
	var err error
	if p.Tx, err = safe.Carry(calls, multiSend, info.Nonce); err != nil {
		return nil, err
	}
	if p.Hashes, err = safe.Hash(new(big.Int).SetUint64(chainID), info.Address, p.Tx); err != nil {
		return nil, err
	}
	return p, p.Check()
}

// Check checks the proposal's parts against each other: the act, the
// calls within bounds, the transaction the one the calls make, the hashes
// the transaction's, every signature its owner's (an owner of the Safe as
// it was) and no owner's twice.
func (p *Proposal) Check() error {
	if err := p.checkShape(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	want, err := safe.Carry(p.Calls, p.MultiSend, p.Tx.Nonce)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if !p.Tx.Equal(want) {
		return fmt.Errorf("%w: its Safe transaction is not the one its calls make: the calls differ from what was reviewed", ErrInvalid)
	}
	h, err := safe.Hash(new(big.Int).SetUint64(p.ChainID), p.Safe, p.Tx)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if h != p.Hashes {
		return fmt.Errorf("%w: its hashes are not its transaction's (safeTxHash %s, computed %s)", ErrInvalid, p.Hashes.SafeTx.Hex(), h.SafeTx.Hex())
	}
	seen := map[common.Address]bool{}
	for _, s := range p.Signatures {
		if seen[s.Owner] {
			return fmt.Errorf("%w: %s signed twice", ErrInvalid, s.Owner.Hex())
		}
		seen[s.Owner] = true
		if !slices.Contains(p.Owners, s.Owner) {
			return fmt.Errorf("%w: a signature of %s, not an owner of the Safe", ErrInvalid, s.Owner.Hex())
		}
		if err := s.Verify(p.Hashes.SafeTx); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalid, err)
		}
	}
	return nil
}

func (p *Proposal) checkShape() error {
	switch {
	case p.ChainID == 0:
		return errors.New("no chain id")
	case p.Act.Op != OpStake && p.Act.Op != OpClaim && p.Act.Op != OpTransfer && p.Act.Op != OpBatch:
		return fmt.Errorf("act %q is no stake, claim, transfer or batch", clip(p.Act.Op))
	case p.Act.Op != OpTransfer && p.Act.To != (common.Address{}):
		return errors.New("an act with a new withdrawal address that is no transfer")
	case p.Act.Subject == "" || len(p.Act.Subject) > 128:
		return errors.New("the act names no pool or allocation")
	case p.Act.Op == OpStake && (p.Act.Amount == nil || p.Act.Amount.Sign() <= 0):
		return errors.New("a stake of no amount")
	case p.Act.Amount != nil && (p.Act.Amount.Sign() < 0 || p.Act.Amount.BitLen() > 256):
		return errors.New("an amount out of range")
	case len(p.Calls) == 0 || len(p.Calls) > MaxCalls:
		return fmt.Errorf("%d calls, not 1 to %d", len(p.Calls), MaxCalls)
	case len(p.Calls) == 1 && p.MultiSend != (common.Address{}):
		return errors.New("one call, and a MultiSend to make it")
	case len(p.Calls) > 1 && p.MultiSend == (common.Address{}):
		return errors.New("several calls, and no MultiSendCallOnly to make them")
	case len(p.Owners) == 0 || len(p.Owners) > safe.MaxOwners:
		return fmt.Errorf("%d owners, not 1 to %d", len(p.Owners), safe.MaxOwners)
	case p.Threshold == 0 || p.Threshold > uint64(len(p.Owners)):
		return fmt.Errorf("threshold %d of %d owners", p.Threshold, len(p.Owners))
	case len(p.Signatures) > len(p.Owners):
		return fmt.Errorf("%d signatures of %d owners", len(p.Signatures), len(p.Owners))
	}
	for i, c := range p.Calls {
		if len(c.Data) > MaxCallData {
			return fmt.Errorf("call %d: %d bytes of data, more than %d", i+1, len(c.Data), MaxCallData)
		}
	}
	return nil
}

// AddSignature adds owner's signature sig after checking it is owner's
// signature of the proposal's safeTxHash, by an owner, not already there.
func (p *Proposal) AddSignature(owner common.Address, sig []byte) error {
	s := safe.Signature{Owner: owner, Bytes: slices.Clone(sig)}
	if err := s.Verify(p.Hashes.SafeTx); err != nil {
		return err
	}
	if !slices.Contains(p.Owners, owner) {
		return fmt.Errorf("%s is not an owner of the Safe %s", owner.Hex(), p.Safe.Hex())
	}
	if p.Signed(owner) {
		return fmt.Errorf("%s has signed this proposal already", owner.Hex())
	}
	p.Signatures = append(p.Signatures, s)
	return nil
}

// Signed reports whether owner's signature is in the proposal.
func (p *Proposal) Signed(owner common.Address) bool {
	return slices.ContainsFunc(p.Signatures, func(s safe.Signature) bool { return s.Owner == owner })
}

// Packed is execTransaction's signatures argument: the proposal's,
// ascending by owner.
func (p *Proposal) Packed() []byte { return safe.PackSignatures(p.Signatures) }

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

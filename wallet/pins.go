package wallet

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Signing fails closed (D17 as amended): a claim or a stake is signed only
// for contracts the profile pins, each with the hash of the code it had
// when it was pinned. What the service lists and what the node answers
// only propose; pinning is the user's own act (`allot pin`, or the
// dashboard's question), never a side effect of signing.

// PinKind is the list of the profile's pins a contract belongs in.
type PinKind string

// The kinds of pins, as `allot pin KIND ADDR` names them.
const (
	PinVester  PinKind = "vester"
	PinStaking PinKind = "staking"
	PinToken   PinKind = "token"
	PinHandler PinKind = "handler"
)

// PinKinds are the kinds in the order `allot pin list` shows them.
var PinKinds = []PinKind{PinVester, PinStaking, PinToken, PinHandler}

// List returns the addresses p pins as kind.
func (p Pins) List(kind PinKind) []common.Address {
	switch kind {
	case PinVester:
		return p.Vesters
	case PinStaking:
		return p.Staking
	case PinToken:
		return p.Tokens
	case PinHandler:
		return p.Handlers
	}
	return nil
}

// Pinned reports whether p pins addr as kind.
func (p Pins) Pinned(kind PinKind, addr common.Address) bool {
	return slices.Contains(p.List(kind), addr)
}

// Unpinned is a contract a claim or a stake needs that the profile does
// not pin, or pins without the hash of its code: pinning it (which records
// that hash) is what would let the check go on.
type Unpinned struct {
	Kind    PinKind
	Address common.Address
}

// PinCommand is the command that pins u.
func (u Unpinned) PinCommand() string {
	return fmt.Sprintf("allot pin %s %s", u.Kind, u.Address.Hex())
}

// OnlyUnpinned reports whether every reason of the refusal is a contract
// the profile does not pin: pinning them is all the check needs to go on.
func (e *RefusedError) OnlyUnpinned() bool {
	return len(e.Unpinned) > 0 && e.pinReasons == len(e.Reasons)
}

// unpinned refuses a contract the profile does not pin, saying how to pin
// it after checking it.
func (e *RefusedError) unpinned(kind PinKind, addr common.Address, format string, args ...any) {
	e.refuse("%s; check it on an explorer, then pin it: %s", fmt.Sprintf(format, args...), Unpinned{kind, addr}.PinCommand())
	e.Unpinned = append(e.Unpinned, Unpinned{kind, addr})
	e.pinReasons++
}

// CodeHash reads the code at addr and returns its keccak256 hash: what a
// pin records, and what a pinned contract must still have. An address
// with no code is ErrNoContract.
func CodeHash(ctx context.Context, node Node, addr common.Address) (common.Hash, error) {
	code, err := node.CodeAt(ctx, addr, nil)
	if err != nil {
		return common.Hash{}, fmt.Errorf("the code at %s: %w", addr.Hex(), err)
	}
	if len(code) == 0 {
		return common.Hash{}, fmt.Errorf("%s: %w", addr.Hex(), ErrNoContract)
	}
	return crypto.Keccak256Hash(code), nil
}

// checkPinned holds the contract addr, which a call needs as kind, to the
// profile: it must be pinned, have code, and have the code it had when it
// was pinned. what names it for the reasons ("vester", "pool's staking
// contract"). It reports whether every check ran and passed.
func checkPinned(ctx context.Context, node Node, refused *RefusedError, kind PinKind, addr common.Address, pins Pins, what string) bool {
	hash, err := CodeHash(ctx, node, addr)
	switch {
	case errors.Is(err, ErrNoContract):
		refused.refuse("the %s %s has no code on the chain: a node that answers for it vouches for nothing", what, addr.Hex())
		return false
	case err != nil:
		refused.unchecked("the code of the %s could not be read: %v", what, err)
		return false
	}
	recorded, hasHash := pins.CodeHashes[addr]
	switch {
	case !pins.Pinned(kind, addr):
		refused.unpinned(kind, addr, "the %s %s is not pinned in the profile (its code hash is %s)", what, addr.Hex(), hash.Hex())
		return false
	case !hasHash:
		refused.unpinned(kind, addr, "the %s %s is pinned without the hash of its code (now %s)", what, addr.Hex(), hash.Hex())
		return false
	case recorded != hash:
		refused.refuse("the code of the %s %s changed since it was pinned: its hash is %s, the profile recorded %s; an upgrade or a node swapping code must be checked again, and pinned again by hand",
			what, addr.Hex(), hash.Hex(), recorded.Hex())
		return false
	}
	return true
}

// pinnedNote is what the review says of a contract checkPinned passed.
func pinnedNote(pins Pins, addr common.Address) string {
	return " · pinned in the profile, its code as pinned (" + pins.CodeHashes[addr].Hex() + ")"
}

// findPinnedVester establishes a claim's vester: the pinned vester that
// holds the proof's root. When none does, the service's candidates are
// asked, only to name the one that holds it (refused, with how to pin
// it); the check then goes on against it, so that every other reason is
// found too. ok is false when no contract to go on with was found.
func findPinnedVester(ctx context.Context, node Node, p ClaimPolicy, root common.Hash, refused *RefusedError) (vester common.Address, ok bool) {
	index := p.Proof.RootIndex
	check, err := FindVester(ctx, node, p.Pins.Vesters, index, root)
	switch {
	case err == nil:
		return check.Vester, true
	case errors.Is(err, ErrUnchecked):
		refused.unchecked("the vester could not be established: %v", err)
		return common.Address{}, false
	}
	var others []common.Address
	for _, c := range p.Candidates {
		if !p.Pins.Pinned(PinVester, c) {
			others = append(others, c)
		}
	}
	listed, err := FindVester(ctx, node, others, index, root)
	switch {
	case errors.Is(err, ErrUnchecked):
		refused.unchecked("the vester could not be established: %v", err)
	case err != nil && len(p.Pins.Vesters) > 0:
		refused.refuse("no pinned vester holds root %d = %s of this proof, and no other contract of this token does", index, root.Hex())
	case err != nil:
		refused.refuse("no contract of this token holds root %d = %s of this proof on the chain", index, root.Hex())
	default:
		// Its code is read (and refused when there is none) by
		// checkPinned, which names it as not pinned.
		return listed.Vester, true
	}
	return common.Address{}, false
}

// SetList sets the addresses p pins as kind.
func (p *Pins) SetList(kind PinKind, addrs []common.Address) {
	switch kind {
	case PinVester:
		p.Vesters = addrs
	case PinStaking:
		p.Staking = addrs
	case PinToken:
		p.Tokens = addrs
	case PinHandler:
		p.Handlers = addrs
	}
}

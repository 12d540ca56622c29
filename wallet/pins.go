package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
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

// nativePlaceholder is the address many services write for the native
// coin: no contract.
var nativePlaceholder = common.HexToAddress("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")

// Reserved says why addr is no contract anyone deployed, so that a node's
// answer of code for it vouches for nothing: the zero address, the
// precompiles and burn addresses such as 0x…dEaD (all below 0x10000), and
// the native coin's placeholder. It returns "" for any other address.
func Reserved(addr common.Address) string {
	switch {
	case addr == nativePlaceholder:
		return "the placeholder services write for the native coin"
	case new(big.Int).SetBytes(addr.Bytes()).Cmp(big.NewInt(0x10000)) < 0:
		return "the zero address, a precompile or a burn address like 0x…dEaD (every address below 0x10000 is reserved)"
	}
	return ""
}

// CodeHash reads the code at addr and returns its keccak256 hash: what a
// pin records, and what a pinned contract must still have. An address
// with no code is ErrNoContract.
func CodeHash(ctx context.Context, node Node, addr common.Address) (common.Hash, error) {
	code, err := readCode(ctx, node, addr)
	if err != nil {
		return common.Hash{}, err
	}
	return crypto.Keccak256Hash(code), nil
}

// ReadPin reads what a pin of addr records: its code hash and, for a
// proxy, the implementation it delegates to now.
func ReadPin(ctx context.Context, node Node, addr common.Address) (common.Hash, Proxy, error) {
	code, err := readCode(ctx, node, addr)
	if err != nil {
		return common.Hash{}, Proxy{}, err
	}
	proxy, err := ReadProxy(ctx, node, addr, code)
	return crypto.Keccak256Hash(code), proxy, err
}

// readCode reads the code at addr; none is ErrNoContract.
func readCode(ctx context.Context, node Node, addr common.Address) ([]byte, error) {
	code, err := node.CodeAt(ctx, addr, nil)
	if err != nil {
		return nil, fmt.Errorf("the code at %s: %w", addr.Hex(), err)
	}
	if len(code) == 0 {
		return nil, fmt.Errorf("%s: %w", addr.Hex(), ErrNoContract)
	}
	return code, nil
}

// checkPinned holds the contract addr, which a call needs as kind, to the
// profile: it must be pinned, have code, have the code it had when it was
// pinned and, for a proxy, delegate to the implementation it delegated to
// then, whose code is as it was. what names it for the reasons ("vester",
// "pool's staking contract"). When every check ran and passed, it returns
// what the review says of it, else "".
func checkPinned(ctx context.Context, node Node, refused *RefusedError, kind PinKind, addr common.Address, pins Pins, what string) string {
	hash, proxy, err := ReadPin(ctx, node, addr)
	switch {
	case errors.Is(err, ErrNoContract) && hash == (common.Hash{}):
		refused.refuse("the %s %s has no code on the chain: a node that answers for it vouches for nothing", what, addr.Hex())
		return ""
	case err != nil && hash == (common.Hash{}):
		refused.unchecked("the code of the %s could not be read: %v", what, err)
		return ""
	}
	recorded, hasHash := pins.CodeHashes[addr]
	switch {
	case !pins.Pinned(kind, addr):
		refused.unpinned(kind, addr, "the %s %s is not pinned in the profile (its code hash is %s)", what, addr.Hex(), hash.Hex())
		return ""
	case !hasHash:
		refused.unpinned(kind, addr, "the %s %s is pinned without the hash of its code (now %s)", what, addr.Hex(), hash.Hex())
		return ""
	case recorded != hash:
		refused.refuse("the code of the %s %s changed since it was pinned: its hash is %s, the profile recorded %s; an upgrade or a node swapping code must be checked again, and pinned again by hand",
			what, addr.Hex(), hash.Hex(), recorded.Hex())
		return ""
	}
	if err != nil {
		refused.unchecked("the implementation behind the %s could not be read: %v", what, err)
		return ""
	}
	if !checkImplementation(refused, kind, addr, what, pins.Implementations[addr], proxy) {
		return ""
	}
	note := " · pinned in the profile, its code as pinned (" + hash.Hex() + ")"
	if proxy.Kind != "" {
		note += ", " + proxy.String() + ", as pinned"
	} else if proxy.Delegates {
		note += "; " + proxy.String()
	}
	return note
}

// checkImplementation holds a pinned contract's proxy reading now to the
// one its pin recorded (zero: not a proxy then): an implementation that
// changed, or appeared, is refused, naming what changed and the pin that
// accepts it after a check.
func checkImplementation(refused *RefusedError, kind PinKind, addr common.Address, what string, recorded, now Proxy) bool {
	again := Unpinned{kind, addr}.PinCommand()
	switch {
	case recorded.Implementation == (common.Address{}) && now.Kind == "":
		return true
	case recorded.Implementation == (common.Address{}):
		refused.refuse("the %s %s is %s, and its pin records no implementation: check the implementation, then pin it again: %s", what, addr.Hex(), now, again)
	case now.Kind == "":
		refused.refuse("the %s %s was pinned as a proxy to implementation %s (code hash %s) and no longer reads as one: check it, then pin it again: %s",
			what, addr.Hex(), recorded.Implementation.Hex(), recorded.CodeHash.Hex(), again)
	case recorded.Implementation != now.Implementation || recorded.CodeHash != now.CodeHash:
		refused.refuse("the logic behind the %s %s changed since it was pinned: its implementation was %s (code hash %s) and is now %s (code hash %s), an upgrade; check the new implementation, then pin it again: %s",
			what, addr.Hex(), recorded.Implementation.Hex(), recorded.CodeHash.Hex(), now.Implementation.Hex(), now.CodeHash.Hex(), again)
	default:
		return true
	}
	return false
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

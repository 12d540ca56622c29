package safe

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// MaxOwners bounds the owners allot reads of a Safe: treasuries have a
// handful, and a node answering thousands is not describing a Safe anyone
// signs with.
const MaxOwners = 50

// maxAnswer bounds a view call's answer in bytes: the owners' list at
// MaxOwners (offset, length and a word each) is the longest.
const maxAnswer = 32 * (2 + MaxOwners)

// Node is what reading a Safe needs of an Ethereum node.
type Node interface {
	ethereum.ContractCaller
	CodeAt(ctx context.Context, account common.Address, blockNumber *big.Int) ([]byte, error)
	StorageAt(ctx context.Context, account common.Address, key common.Hash, blockNumber *big.Int) ([]byte, error)
}

// Info is a Safe as the chain holds it.
type Info struct {
	Address common.Address
	// Singleton is the Safe's logic, from the proxy's storage slot 0, and
	// Kind the canonical singleton its code is.
	Singleton         common.Address
	SingletonCodeHash common.Hash
	Kind              Singleton
	// Version is what the Safe's VERSION() answers: Kind's version.
	Version string
	// Owners in the order getOwners() returns them (the Safe's linked
	// list, newest first).
	Owners    []common.Address
	Threshold uint64
	// Nonce is the nonce of the Safe's next transaction.
	Nonce *big.Int
}

// IsOwner says whether a is among the owners.
func (i Info) IsOwner(a common.Address) bool { return slices.Contains(i.Owners, a) }

// safeABI is the part of the Safe's interface allot reads, identical in
// 1.3.0 and 1.4.1.
var safeABI = mustParse(`[
{"type":"function","name":"VERSION","stateMutability":"view","inputs":[],"outputs":[{"type":"string"}]},
{"type":"function","name":"getOwners","stateMutability":"view","inputs":[],"outputs":[{"type":"address[]"}]},
{"type":"function","name":"getThreshold","stateMutability":"view","inputs":[],"outputs":[{"type":"uint256"}]},
{"type":"function","name":"nonce","stateMutability":"view","inputs":[],"outputs":[{"type":"uint256"}]}
]`)

func mustParse(s string) abi.ABI {
	parsed, err := abi.JSON(strings.NewReader(s))
	if err != nil {
		panic(fmt.Sprintf("safe: %v", err)) // a constant above: a broken build
	}
	return parsed
}

// sentinel is the head of the Safe's owners' linked list, never an owner.
var sentinel = common.HexToAddress("0x0000000000000000000000000000000000000001")

// Read reads the Safe at addr. It refuses (ErrNotSafe) a contract whose
// code is not a canonical Safe proxy's or whose singleton's code is not a
// canonical Safe 1.3.0 or 1.4.1 singleton's; the Info returned with that
// error holds what was read so far (the singleton and its code hash), to
// say why. Every answer is checked (ErrBadAnswer): at most MaxOwners
// owners, none zero, the sentinel or twice, a threshold between 1 and
// their number, a version matching the singleton's.
func Read(ctx context.Context, node Node, addr common.Address) (Info, error) {
	info := Info{Address: addr}
	code, err := node.CodeAt(ctx, addr, nil)
	if err != nil {
		return info, fmt.Errorf("the code at %s: %w", addr.Hex(), err)
	}
	if len(code) == 0 {
		return info, fmt.Errorf("%s has no code: %w", addr.Hex(), ErrNotSafe)
	}
	if h := crypto.Keccak256Hash(code); !CanonicalProxy(h) {
		return info, fmt.Errorf("%s: its code (hash %s) is not a Safe proxy's: %w", addr.Hex(), h.Hex(), ErrNotSafe)
	}
	if err := readSingleton(ctx, node, &info); err != nil {
		return info, err
	}
	if err := readState(ctx, node, &info); err != nil {
		return info, fmt.Errorf("the Safe %s: %w", addr.Hex(), err)
	}
	return info, nil
}

// readSingleton reads the singleton from the proxy's slot 0 and checks its
// code is a canonical singleton's.
func readSingleton(ctx context.Context, node Node, info *Info) error {
	word, err := node.StorageAt(ctx, info.Address, common.Hash{}, nil)
	if err != nil {
		return fmt.Errorf("the singleton of %s (storage slot 0): %w", info.Address.Hex(), err)
	}
	if len(word) != 32 || !isAddressWord(word) {
		return fmt.Errorf("the singleton of %s: slot 0 holds %d bytes, not an address: %w", info.Address.Hex(), len(word), ErrBadAnswer)
	}
	info.Singleton = common.BytesToAddress(word[12:])
	code, err := node.CodeAt(ctx, info.Singleton, nil)
	if err != nil {
		return fmt.Errorf("the code of %s's singleton %s: %w", info.Address.Hex(), info.Singleton.Hex(), err)
	}
	info.SingletonCodeHash = crypto.Keccak256Hash(code)
	kind, ok := CanonicalSingleton(info.SingletonCodeHash)
	if !ok {
		return fmt.Errorf("%s: its singleton %s (code hash %s) is not a canonical Safe 1.3.0 or 1.4.1 singleton: %w",
			info.Address.Hex(), info.Singleton.Hex(), info.SingletonCodeHash.Hex(), ErrNotSafe)
	}
	info.Kind = kind
	return nil
}

func isAddressWord(w []byte) bool {
	for _, b := range w[:12] {
		if b != 0 {
			return false
		}
	}
	return true
}

// readState reads and checks the version, owners, threshold and nonce.
func readState(ctx context.Context, node Node, info *Info) error {
	var err error
	if info.Version, err = call[string](ctx, node, info.Address, "VERSION"); err != nil {
		return err
	}
	if info.Version != info.Kind.Version {
		return fmt.Errorf("VERSION() is %q, its singleton is %s's: %w", trim(info.Version), info.Kind, ErrBadAnswer)
	}
	if info.Owners, err = call[[]common.Address](ctx, node, info.Address, "getOwners"); err != nil {
		return err
	}
	if err := checkOwners(info.Owners); err != nil {
		return err
	}
	threshold, err := call[*big.Int](ctx, node, info.Address, "getThreshold")
	if err != nil {
		return err
	}
	if threshold.Sign() <= 0 || threshold.Cmp(big.NewInt(int64(len(info.Owners)))) > 0 {
		return fmt.Errorf("threshold %s of %d owners: %w", threshold, len(info.Owners), ErrBadAnswer)
	}
	info.Threshold = threshold.Uint64()
	if info.Nonce, err = call[*big.Int](ctx, node, info.Address, "nonce"); err != nil {
		return err
	}
	return nil
}

func checkOwners(owners []common.Address) error {
	if len(owners) == 0 || len(owners) > MaxOwners {
		return fmt.Errorf("%d owners, not 1 to %d: %w", len(owners), MaxOwners, ErrBadAnswer)
	}
	seen := make(map[common.Address]bool, len(owners))
	for _, o := range owners {
		if o == (common.Address{}) || o == sentinel || seen[o] {
			return fmt.Errorf("owner %s is zero, the list's sentinel or listed twice: %w", o.Hex(), ErrBadAnswer)
		}
		seen[o] = true
	}
	return nil
}

// call calls a view of the Safe and decodes its one result, refusing an
// answer longer than any the Safe gives before decoding it.
func call[T any](ctx context.Context, node Node, addr common.Address, method string) (T, error) {
	var zero T
	data, err := safeABI.Pack(method)
	if err != nil {
		return zero, fmt.Errorf("%s(): %w", method, err)
	}
	out, err := node.CallContract(ctx, ethereum.CallMsg{To: &addr, Data: data}, nil)
	if err != nil {
		return zero, fmt.Errorf("%s(): %w", method, err)
	}
	if len(out) > maxAnswer {
		return zero, fmt.Errorf("%s(): an answer of %d bytes: %w", method, len(out), ErrBadAnswer)
	}
	values, err := safeABI.Unpack(method, out)
	if err != nil || len(values) != 1 {
		return zero, fmt.Errorf("%s(): %v: %w", method, err, ErrBadAnswer)
	}
	v, ok := values[0].(T)
	if !ok {
		return zero, fmt.Errorf("%s(): a %T: %w", method, values[0], ErrBadAnswer)
	}
	return v, nil
}

// trim shortens a string a node answered for an error message; the caller
// sanitizes it before it reaches a terminal.
func trim(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

package wallet

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
)

// A proxy's code stays the same when the logic it runs changes: it
// DELEGATECALLs an implementation whose address it keeps in storage (or,
// for a minimal proxy, in its code). A pin of a proxy therefore records
// the implementation too, and signing reads it again.

// Proxy is what a contract's code and storage say of the logic it runs.
type Proxy struct {
	// Kind names the proxy's layout ("EIP-1967", "EIP-1967 beacon",
	// "EIP-1822", "EIP-1167 minimal proxy", "Safe proxy"); empty when
	// the contract is not a proxy allot can read.
	Kind string
	// Implementation is the address of the logic and CodeHash its code's
	// hash, when Kind is set.
	Implementation common.Address
	CodeHash       common.Hash
	// Delegates is set when the code holds a DELEGATECALL (or CALLCODE)
	// that no layout allot knows explains and that is not proved to call
	// the contract itself: the logic it runs may change without its code
	// or any slot allot reads changing.
	Delegates bool
}

// The storage slots of the proxy layouts allot reads.
var (
	// eip1967Implementation is bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1),
	// used by OpenZeppelin's transparent and UUPS proxies too.
	eip1967Implementation = common.HexToHash("0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc")
	// eip1967Beacon is bytes32(uint256(keccak256("eip1967.proxy.beacon")) - 1).
	eip1967Beacon = common.HexToHash("0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50")
	// eip1822Proxiable is keccak256("PROXIABLE").
	eip1822Proxiable = crypto.Keccak256Hash([]byte("PROXIABLE"))
	// safeMasterCopy is the selector of masterCopy(), which a Safe proxy
	// answers itself from slot 0 (its singleton).
	safeMasterCopy = []byte{0x63, 0xa6, 0x19, 0x48, 0x6e} // PUSH4 0xa619486e
	// minimalProxy is EIP-1167's code around its 20-byte implementation.
	minimalProxyHead = common.FromHex("0x363d3d373d3d3d363d73")
	minimalProxyTail = common.FromHex("0x5af43d82803e903d91602b57fd5bf3")
	// beaconImplementation is the selector of a beacon's implementation().
	beaconImplementation = crypto.Keccak256([]byte("implementation()"))[:4]
)

// StorageReader reads a contract's storage: a node that proxies are read
// through.
type StorageReader interface {
	StorageAt(ctx context.Context, account common.Address, key common.Hash, blockNumber *big.Int) ([]byte, error)
}

// ReadProxy reads the logic behind the contract at addr, whose code is
// code: the implementation named by its minimal-proxy code, or by the
// EIP-1967, EIP-1822 or Safe slot its storage holds, with that
// implementation's code hash. Code without a DELEGATECALL is no proxy and
// costs no read. An implementation slot naming an address with no code is
// an error, as is a node that cannot read storage.
func ReadProxy(ctx context.Context, node Node, addr common.Address, code []byte) (Proxy, error) {
	if !delegates(code) {
		return Proxy{}, nil
	}
	if len(code) == len(minimalProxyHead)+20+len(minimalProxyTail) &&
		bytes.HasPrefix(code, minimalProxyHead) && bytes.HasSuffix(code, minimalProxyTail) {
		return implementation(ctx, node, "EIP-1167 minimal proxy", common.BytesToAddress(code[len(minimalProxyHead):len(minimalProxyHead)+20]))
	}
	storage, ok := node.(StorageReader)
	if !ok {
		return Proxy{}, fmt.Errorf("the storage of %s: the node cannot read storage", addr.Hex())
	}
	slots := []proxySlot{{"EIP-1967", eip1967Implementation}, {beaconKind, eip1967Beacon}, {"EIP-1822", eip1822Proxiable}}
	if bytes.Contains(code, safeMasterCopy) {
		slots = append(slots, proxySlot{"Safe", common.Hash{}}) // the singleton, slot 0
	}
	for _, s := range slots {
		word, err := storage.StorageAt(ctx, addr, s.slot, nil)
		if err != nil {
			return Proxy{}, fmt.Errorf("the %s slot of %s: %w", s.kind, addr.Hex(), err)
		}
		at, ok := addressWord(word)
		if !ok {
			return Proxy{}, fmt.Errorf("the %s slot of %s holds no address: %x", s.kind, addr.Hex(), word)
		}
		if at == (common.Address{}) {
			continue
		}
		if s.kind == beaconKind {
			beacon := at
			out, err := node.CallContract(ctx, ethereum.CallMsg{To: &beacon, Data: beaconImplementation}, nil)
			if at, ok = addressWord(out); err != nil || len(out) != 32 || !ok {
				return Proxy{}, fmt.Errorf("the implementation() of %s's beacon %s: %v", addr.Hex(), beacon.Hex(), cmp.Or(err, errNotAnAddress))
			}
		}
		return implementation(ctx, node, s.kind, at)
	}
	return Proxy{Delegates: true}, nil
}

// errNotAnAddress: a word that should hold an address holds more.
var errNotAnAddress = errors.New("not an address")

// addressWord is the address a 32-byte word holds, as Solidity stores
// and returns one: ok is false when its 12 high bytes are not zero (or
// it is longer than a word), and the word is no address at all.
func addressWord(word []byte) (common.Address, bool) {
	if len(word) > 32 {
		return common.Address{}, false
	}
	w := common.BytesToHash(word)
	for _, b := range w[:12] {
		if b != 0 {
			return common.Address{}, false
		}
	}
	return common.BytesToAddress(w[12:]), true
}

// proxySlot is a storage slot a proxy layout keeps its implementation in.
type proxySlot struct {
	kind string
	slot common.Hash
}

// beaconKind is the layout whose slot names a beacon, which names the
// implementation.
const beaconKind = "EIP-1967 beacon"

// implementation reads the code hash of a proxy's implementation at.
func implementation(ctx context.Context, node Node, kind string, at common.Address) (Proxy, error) {
	hash, err := CodeHash(ctx, node, at)
	if err != nil {
		return Proxy{}, fmt.Errorf("the implementation of the %s: %w", kind, err)
	}
	return Proxy{Kind: kind, Implementation: at, CodeHash: hash}, nil
}

// delegates reports whether code can run code other than its own: it
// holds a DELEGATECALL or CALLCODE instruction (not a byte of a PUSH's
// data), and selfCallsOnly cannot prove that each one it can reach calls
// the contract itself (selfcall.go).
func delegates(code []byte) bool {
	for i := 0; i < len(code); i++ {
		op := vm.OpCode(code[i])
		switch {
		case op == vm.DELEGATECALL || op == vm.CALLCODE:
			return !selfCallsOnly(code)
		case op >= vm.PUSH1 && op <= vm.PUSH32:
			i += int(op - vm.PUSH1 + 1)
		}
	}
	return false
}

// String says what p is, for a review or a pin's question.
func (p Proxy) String() string {
	switch {
	case p.Kind != "":
		return fmt.Sprintf("a proxy (%s) to implementation %s (code hash %s)", p.Kind, p.Implementation.Hex(), p.CodeHash.Hex())
	case p.Delegates:
		return "its code can DELEGATECALL in a way allot cannot read (no proxy layout it knows): what it runs may change while its code stays the same"
	}
	return "not a proxy"
}

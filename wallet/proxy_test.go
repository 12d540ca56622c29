package wallet

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// TestCheckClaimProxyHandler: a pinned contract that is a proxy (here the
// post-claim handler a claim goes through) is held to the implementation
// its pin recorded: an upgrade (another implementation in its EIP-1967
// slot), an implementation whose code changed, or a proxy pinned without
// its implementation is refused, naming what changed and the pin that
// accepts it; one as pinned is signed and the review names its logic. A
// DELEGATECALL allot cannot follow is said in the review.
func TestCheckClaimProxyHandler(t *testing.T) {
	p, root := fakeProof(t)
	alice := common.Address{0xa1}
	proxy := common.HexToAddress("0x0000000000000000000000000000000000001967")
	implA := common.HexToAddress("0x000000000000000000000000000000000000000a")
	implB := common.HexToAddress("0x000000000000000000000000000000000000000b")
	proxyCode := []byte{0x5a, 0xf4, 0x00} // GAS DELEGATECALL STOP: code that delegates
	minimal := slices.Concat(minimalProxyHead, implA.Bytes(), minimalProxyTail)
	codeA, codeB := []byte{0x60, 0x0a}, []byte{0x60, 0x0b}
	pinnedA := Proxy{Implementation: implA, CodeHash: crypto.Keccak256Hash(codeA)}
	for _, tc := range []struct {
		name     string
		code     []byte         // the handler's code, pinned as it is
		impl     common.Address // in its EIP-1967 slot now
		swapA    bool           // implA's code changed since the pin
		recorded *Proxy         // the pin's implementation
		refused  string         // empty: approved
		says     string         // what the review says of it
	}{
		{name: "as pinned", code: proxyCode, impl: implA, recorded: &pinnedA,
			says: "a proxy (EIP-1967) to implementation " + implA.Hex()},
		{name: "upgraded", code: proxyCode, impl: implB, recorded: &pinnedA,
			refused: "the logic behind the post-claim handler " + proxy.Hex() + " changed since it was pinned: its implementation was " + implA.Hex() +
				" (code hash " + pinnedA.CodeHash.Hex() + ") and is now " + implB.Hex() + " (code hash " + crypto.Keccak256Hash(codeB).Hex() + ")"},
		{name: "its implementation's code swapped", code: proxyCode, impl: implA, swapA: true, recorded: &pinnedA,
			refused: "is now " + implA.Hex() + " (code hash " + crypto.Keccak256Hash(codeB).Hex() + ")"},
		{name: "pinned without its implementation", code: proxyCode, impl: implA,
			refused: "its pin records no implementation: check the implementation, then pin it again: allot pin handler " + proxy.Hex()},
		{name: "pinned as a proxy, no longer one", code: proxyCode, recorded: &pinnedA,
			refused: "no longer reads as one"},
		{name: "a minimal proxy as pinned", code: minimal, recorded: &pinnedA,
			says: "a proxy (EIP-1167 minimal proxy) to implementation " + implA.Hex()},
		{name: "a DELEGATECALL allot cannot follow", code: proxyCode,
			says: "its code can DELEGATECALL in a way allot cannot read"},
		{name: "no DELEGATECALL, only its byte in PUSH data", code: []byte{0x60, 0xf4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeVester(root, aliceHead)
			f.handlers = []common.Address{proxy}
			f.code = map[common.Address][]byte{proxy: tc.code, implA: codeA, implB: codeB}
			if tc.swapA {
				f.code[implA] = codeB
			}
			f.slots = map[common.Hash]common.Hash{eip1967Implementation: common.BytesToHash(tc.impl.Bytes())}
			if tc.impl == (common.Address{}) {
				f.slots = nil
			}
			policy, call := aliceClaim(t, f, p, alice, new(big.Int), proxy)
			policy.Pins.Handlers = []common.Address{proxy}
			policy.Pins.CodeHashes[proxy] = crypto.Keccak256Hash(tc.code)
			if tc.recorded != nil {
				policy.Pins.Implementations = map[common.Address]Proxy{proxy: *tc.recorded}
			}
			a, err := CheckClaim(context.Background(), f, policy, []Call{call})
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("err = %v; want a refusal saying %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var said strings.Builder
			for _, l := range a.Facts {
				said.WriteString(l.Label + ": " + l.Value + "\n")
			}
			if !strings.Contains(said.String(), tc.says) || (tc.says == "" && strings.Contains(said.String(), "DELEGATECALL")) {
				t.Errorf("the review does not say %q:\n%s", tc.says, said.String())
			}
		})
	}
}

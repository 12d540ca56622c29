package wallet

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// layoutNode is a node of code, storage and beacons: each beacon answers
// implementation() with its word.
type layoutNode struct {
	Node
	code    map[common.Address][]byte
	slots   map[common.Address]map[common.Hash]common.Hash
	beacons map[common.Address][]byte
}

func (n *layoutNode) CodeAt(_ context.Context, a common.Address, _ *big.Int) ([]byte, error) {
	return n.code[a], nil
}

func (n *layoutNode) StorageAt(_ context.Context, a common.Address, key common.Hash, _ *big.Int) ([]byte, error) {
	w := n.slots[a][key]
	return w.Bytes(), nil
}

func (n *layoutNode) CallContract(_ context.Context, msg ethereum.CallMsg, _ *big.Int) ([]byte, error) {
	if out, ok := n.beacons[*msg.To]; ok && bytes.Equal(msg.Data, beaconImplementation) {
		return out, nil
	}
	return nil, errors.New("execution reverted")
}

// TestReadProxyLayouts: the logic behind each proxy layout a pin follows
// is read where that layout keeps it: the EIP-1967 implementation slot, an
// EIP-1967 beacon's implementation(), the EIP-1822 PROXIABLE slot, a Safe
// proxy's slot 0 (its singleton), an EIP-1167 minimal proxy's code; a
// DELEGATECALL none of them explains is said; an implementation without
// code and a beacon that answers nonsense are errors, never a pin.
func TestReadProxyLayouts(t *testing.T) {
	proxy := common.HexToAddress("0x00000000000000000000000000000000000000f1")
	impl := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	beacon := common.HexToAddress("0x00000000000000000000000000000000000000b1")
	implCode := []byte{0x60, 0x01}
	delegating := []byte{0x5a, 0xf4, 0x00} // GAS DELEGATECALL STOP
	safeProxy := slices.Concat(safeMasterCopy, delegating)
	word := func(a common.Address) common.Hash { return common.BytesToHash(a.Bytes()) }
	for _, tc := range []struct {
		name    string
		code    []byte
		slot    common.Hash // where the proxy keeps impl (or the beacon)
		beacon  []byte      // the beacon's answer to implementation()
		noImpl  bool        // impl has no code
		kind    string      // want; "" with delegates: unexplained
		wantErr string
	}{
		{name: "EIP-1967", code: delegating, slot: eip1967Implementation, kind: "EIP-1967"},
		{name: "EIP-1967 beacon", code: delegating, slot: eip1967Beacon, beacon: word(impl).Bytes(), kind: "EIP-1967 beacon"},
		{name: "EIP-1822", code: delegating, slot: eip1822Proxiable, kind: "EIP-1822"},
		{name: "Safe", code: safeProxy, slot: common.Hash{}, kind: "Safe"},
		{name: "slot 0 of a proxy that is no Safe", code: delegating, slot: common.Hash{}},
		{name: "EIP-1167", code: slices.Concat(minimalProxyHead, impl.Bytes(), minimalProxyTail), kind: "EIP-1167 minimal proxy"},
		{name: "a beacon that answers nonsense", code: delegating, slot: eip1967Beacon, beacon: []byte{1, 2, 3}, wantErr: "beacon"},
		{name: "a beacon that answers a word that is no address", code: delegating, slot: eip1967Beacon, beacon: common.HexToHash("0xff" + strings.Repeat("00", 11) + impl.Hex()[2:]).Bytes(), wantErr: "beacon"},
		{name: "an implementation without code", code: delegating, slot: eip1967Implementation, noImpl: true, wantErr: "implementation of the EIP-1967"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := &layoutNode{
				code:    map[common.Address][]byte{proxy: tc.code, impl: implCode},
				slots:   map[common.Address]map[common.Hash]common.Hash{proxy: {}},
				beacons: map[common.Address][]byte{},
			}
			if tc.noImpl {
				delete(n.code, impl)
			}
			if tc.beacon != nil {
				n.slots[proxy][tc.slot] = word(beacon)
				n.code[beacon] = []byte{0x60, 0x02}
				n.beacons[beacon] = tc.beacon
			} else if !bytes.HasPrefix(tc.code, minimalProxyHead) {
				n.slots[proxy][tc.slot] = word(impl)
			}
			if tc.name == "EIP-1967" {
				t.Run("a slot that holds no address", func(t *testing.T) {
					dirty := &layoutNode{code: n.code, slots: map[common.Address]map[common.Hash]common.Hash{proxy: {
						tc.slot: common.HexToHash("0x01" + strings.Repeat("00", 11) + impl.Hex()[2:]),
					}}}
					if _, err := ReadProxy(context.Background(), dirty, proxy, tc.code); err == nil || !strings.Contains(err.Error(), "holds no address") {
						t.Errorf("err %v", err)
					}
				})
			}
			p, err := ReadProxy(context.Background(), n, proxy, tc.code)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one naming %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case tc.kind == "":
				if p.Kind != "" || !p.Delegates {
					t.Errorf("read as %+v, want a DELEGATECALL allot cannot follow", p)
				}
			case p.Kind != tc.kind || p.Implementation != impl || p.CodeHash != crypto.Keccak256Hash(implCode):
				t.Errorf("read %+v, want %s to %s", p, tc.kind, impl.Hex())
			}
		})
	}
}

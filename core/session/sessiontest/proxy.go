package sessiontest

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// eip1967Slot is where an EIP-1967 proxy keeps its implementation.
var eip1967Slot = common.HexToHash("0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc")

// proxyRuntime is an EIP-1967 proxy written in opcodes (no solc needed):
// a call of exactly 32 bytes, from anyone, stores them as the
// implementation (an upgrade an attacker controls); any other call is
// delegated to the implementation, its return data returned or reverted.
func proxyRuntime() []byte {
	slot := append([]byte{0x7f}, eip1967Slot.Bytes()...)     // PUSH32 slot
	code := []byte{0x36, 0x60, 0x20, 0x14, 0x60, 0x00, 0x57} // CALLDATASIZE PUSH1 32 EQ PUSH1 upgrade JUMPI
	code = append(code, 0x36, 0x5f, 0x5f, 0x37)              // CALLDATACOPY(0, 0, CALLDATASIZE)
	code = append(code, 0x5f, 0x5f, 0x36, 0x5f)              // retSize 0, retOffset 0, argsSize, argsOffset 0
	code = append(code, slot...)
	code = append(code, 0x54, 0x5a, 0xf4)       // SLOAD GAS DELEGATECALL
	code = append(code, 0x3d, 0x5f, 0x5f, 0x3e) // RETURNDATACOPY(0, 0, RETURNDATASIZE)
	code = append(code, 0x60, 0x00, 0x57)       // PUSH1 done JUMPI
	code = append(code, 0x3d, 0x5f, 0xfd)       // REVERT(0, RETURNDATASIZE)
	done := len(code)
	code = append(code, 0x5b, 0x3d, 0x5f, 0xf3) // JUMPDEST RETURN(0, RETURNDATASIZE)
	upgrade := len(code)
	code = append(code, 0x5b, 0x5f, 0x35) // JUMPDEST CALLDATALOAD(0)
	code = append(code, slot...)
	code = append(code, 0x55, 0x00) // SSTORE STOP
	code[5] = byte(upgrade)
	code[done-5] = byte(done)
	return code
}

// DeployProxy deploys an EIP-1967 proxy to impl; Upgrade points it at
// another implementation, as upgradeToAndCall does.
func (h *Hostile) DeployProxy(t testing.TB, impl common.Address) common.Address {
	t.Helper()
	runtime := proxyRuntime()
	// PUSH1 len DUP1 PUSH1 9 PUSH0 CODECOPY PUSH0 RETURN, then the runtime.
	init := append([]byte{0x60, byte(len(runtime)), 0x80, 0x60, 0x09, 0x5f, 0x39, 0x5f, 0xf3}, runtime...)
	receipt := h.send(t, nil, init)
	if receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("deploy the proxy: %+v", receipt)
	}
	proxy := receipt.ContractAddress
	h.Upgrade(t, proxy, impl)
	return proxy
}

// Upgrade makes proxy delegate to impl.
func (h *Hostile) Upgrade(t testing.TB, proxy, impl common.Address) {
	t.Helper()
	if r := h.send(t, &proxy, common.BytesToHash(impl.Bytes()).Bytes()); r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("upgrade the proxy: %+v", r)
	}
}

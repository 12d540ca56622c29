package vesterabi

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"allot/assets"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// The selectors a node's revert data or a claim's calldata carry are the
// production vester's: 0x356680b7 is what a refused estimate showed as
// unknown data before allot knew InsufficientFunds.
func TestSelectors(t *testing.T) {
	for name, want := range map[string]string{
		"InsufficientFunds": "0x356680b7",
	} {
		e, ok := ABI.Errors[name]
		if !ok {
			t.Fatalf("no error %s", name)
		}
		if got := hexutil.Encode(e.ID[:4]); got != want {
			t.Errorf("%s selector %s, want %s", name, got, want)
		}
	}
	for name, sig := range map[string]string{
		Withdraw:        "withdraw(uint256,uint32,bytes,bytes32[])",
		WithdrawHandler: "withdraw(uint256,uint32,bytes,bytes32[],address,bytes)",
		"schedules":     "schedules(string)",
		"getClaimFee":   "getClaimFee(string)",
	} {
		if m, ok := ABI.Methods[name]; !ok || m.Sig != sig {
			t.Errorf("method %s = %q, want %s", name, m.Sig, sig)
		}
	}
	for name := range Meanings {
		if _, ok := ABI.Errors[name]; !ok {
			t.Errorf("meaning of %s, an error the vester does not have", name)
		}
	}
}

// The sandbox's vester implements the production interface: every method,
// event and error declared here is in its compiled ABI with the same
// signature and outputs, and it has no error this interface lacks.
func TestSandboxVesterSpeaksIt(t *testing.T) {
	sandbox, err := assets.ABI(assets.VesterContract)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ABI.Methods {
		// Overloads are told apart by their selector, not by the name
		// go-ethereum gives them in the order they are declared.
		got, err := sandbox.MethodById(m.ID)
		if err != nil || outputs(*got) != outputs(m) {
			t.Errorf("method %s -> %s: the sandbox's vester has it not, or with outputs %v", m.Sig, outputs(m), got)
		}
	}
	for name, e := range ABI.Events {
		if got, ok := sandbox.Events[name]; !ok || got.ID != e.ID {
			t.Errorf("event %s: the sandbox's vester has %q, want %q", name, got.Sig, e.Sig)
		}
	}
	for name, e := range sandbox.Errors {
		if got, ok := ABI.Errors[name]; !ok || got.ID != e.ID {
			t.Errorf("error %s of the sandbox's vester: not in the production interface", e.Sig)
		}
	}
}

// outputs writes a method's output types in order.
func outputs(m abi.Method) string {
	var out []string
	for _, o := range m.Outputs {
		out = append(out, o.Type.String())
	}
	return strings.Join(out, ",")
}

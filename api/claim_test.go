package api

import (
	"strings"
	"testing"
)

// TestEVMInstructionValueIsWei: an instruction is an EVM call only with a
// wei value that is a whole, non-negative number of at most 78 digits;
// anything else is shown raw and not signed.
func TestEVMInstructionValueIsWei(t *testing.T) {
	ins := func(value string) Instruction {
		return Instruction{Raw: []byte(`{"chainId":1,"to":"0x` + strings.Repeat("ab", 20) + `","data":"0x","value":` + value + `}`)}
	}
	for _, v := range []string{`"0"`, `"1000000000000000"`, `""`, `"` + strings.Repeat("9", 78) + `"`} {
		if _, ok := ins(v).EVM(); !ok {
			t.Errorf("value %s refused", v)
		}
	}
	for _, v := range []string{`"-1"`, `"1.5"`, `"+1"`, `"1e18"`, `"` + strings.Repeat("9", 79) + `"`, `1`, `" 1"`} {
		if e, ok := ins(v).EVM(); ok {
			t.Errorf("value %s read as %q", v, e.Value)
		}
	}
}

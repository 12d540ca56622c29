package wallet

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/safe"
)

// TestExecCeilingOfABatch: a Safe's execTransaction may use what the
// calls it makes may use alone, twice over, never less than the fixed
// ceiling; one making a call allot has no ceiling for keeps the fixed one.
func TestExecCeilingOfABatch(t *testing.T) {
	token, pool := common.HexToAddress("0x70c3e"), common.HexToAddress("0xb0015")
	approve := safe.InnerCall{To: token, Data: must(tokenABI.Pack("approve", pool, ether(1)))}
	stake := safe.InnerCall{To: pool, Data: must(stakingABI.Pack("stake", ether(1)))}
	sweep := safe.InnerCall{To: token, Data: []byte{0xde, 0xad, 0xbe, 0xef}}
	exec := func(calls ...safe.InnerCall) []byte {
		tx, err := safe.Carry(calls, common.HexToAddress("0x5e4d"), big.NewInt(0))
		if err != nil {
			t.Fatal(err)
		}
		data, err := safe.ExecData(tx, make([]byte, 65))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	fixed := gasLimits["execTransaction"]
	pair := 2 * (gasLimits["approve"] + gasLimits["stake"])
	for name, tc := range map[string]struct {
		data []byte
		want uint64
		ok   bool
	}{
		"three stakes":    {exec(approve, stake, approve, stake, approve, stake), 3 * pair, true},
		"one stake":       {exec(approve, stake), fixed, true},
		"one call":        {exec(stake), fixed, true},
		"an unknown call": {exec(approve, sweep), 0, false},
		"no exec":         {stake.Data, 0, false},
	} {
		got, ok := execCeiling(tc.data)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %d %v, want %d %v", name, got, ok, tc.want, tc.ok)
		}
	}
}

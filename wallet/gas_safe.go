package wallet

import (
	"allot/wallet/safe"
)

// execCeiling is the most gas a Safe's execTransaction of data may be
// given when it makes a batch: as its fixed ceiling says for one approve
// and one stake, what the calls it makes may use alone (their ceilings)
// and as much again for the Safe's own work. ok is false when data is no
// execTransaction, or makes a call allot has no ceiling for: the fixed
// ceiling stands.
func execCeiling(data []byte) (ceiling uint64, ok bool) {
	m, values, ok := decodeKnown(data)
	if !ok || m.method.RawName != "execTransaction" {
		return 0, false
	}
	inner, _ := values[2].([]byte)
	operation, _ := values[3].(uint8)
	calls := [][]byte{inner}
	if safe.Operation(operation) == safe.DelegateCall {
		batch, err := safe.UnpackMultiSend(inner)
		if err != nil {
			return 0, false
		}
		calls = calls[:0]
		for _, c := range batch {
			calls = append(calls, c.Data)
		}
	}
	for _, c := range calls {
		m, _, ok := decodeKnown(c)
		if !ok {
			return 0, false
		}
		limit, ok := gasLimits[m.method.RawName]
		if !ok || m.method.RawName == "execTransaction" {
			return 0, false
		}
		ceiling += 2 * limit
	}
	return max(ceiling, gasLimits["execTransaction"]), true
}

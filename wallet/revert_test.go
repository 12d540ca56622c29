package wallet

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// dataError is a JSON-RPC error with data, as eth_call's revert is.
type dataError struct {
	msg  string
	data any
}

func (e dataError) Error() string  { return e.msg }
func (e dataError) ErrorData() any { return e.data }

func TestRevertReason(t *testing.T) {
	id := vesterABI.Errors["AmountZero"].ID
	zero := id[:4]
	for _, tc := range []struct {
		name   string
		err    error
		want   string
		revert bool
	}{
		{"decoded", dataError{"execution reverted", hexutil.Encode(zero)}, "AmountZero(): nothing is withdrawable now", true},
		{"unknown data", dataError{"execution reverted", "0x01020304"}, "reverted with unknown data 0x01020304", true},
		{"words only", errors.New("execution reverted"), "execution reverted", true},
		{"out of gas", errors.New("out of gas"), "out of gas", true},
		{"not a revert", errors.New("connection refused"), "", false},
	} {
		got, ok := revertReason(tc.err)
		if got != tc.want || ok != tc.revert {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.revert)
		}
	}
}

package wallet

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"allot/sanitize"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

func packError(t *testing.T, contract abi.ABI, name string, args ...any) []byte {
	t.Helper()
	e := contract.Errors[name]
	data, err := e.Inputs.Pack(args...)
	if err != nil {
		t.Fatal(err)
	}
	return append(e.ID[:4:4], data...)
}

func packBuiltin(t *testing.T, signature, typ string, arg any) []byte {
	t.Helper()
	ty, _ := abi.NewType(typ, "", nil)
	data, err := abi.Arguments{{Type: ty}}.Pack(arg)
	if err != nil {
		t.Fatal(err)
	}
	id := abi.NewError(signature, abi.Arguments{{Type: ty}}).ID
	return append(id[:4:4], data...)
}

func TestDecodeRevert(t *testing.T) {
	pool := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"vester error", packError(t, vesterABI, "AmountExceedsUnlocked", big.NewInt(5000), big.NewInt(2000)), "AmountExceedsUnlocked(requested: 5000, available: 2000)"},
		{"no arguments", packError(t, vesterABI, "InvalidProof"), "InvalidProof()"},
		{"uint32 argument", packError(t, vesterABI, "UnknownRoot", uint32(3)), "UnknownRoot(rootIndex: 3)"},
		{"token error", packError(t, tokenABI, "ERC20InsufficientAllowance", pool, big.NewInt(0), big.NewInt(5)),
			"ERC20InsufficientAllowance(spender: " + pool.Hex() + ", allowance: 0, needed: 5)"},
		{"string argument sanitized", packError(t, vesterABI, "UnknownAllocationType", "cal\x1b[2Jendar"),
			`UnknownAllocationType(allocationType: "` + sanitize.Line("cal\x1b[2Jendar") + `")`},
		{"Error(string)", packBuiltin(t, "Error", "string", "not enough\nfunds"), sanitize.Line("not enough\nfunds")},
		{"Panic(uint256)", packBuiltin(t, "Panic", "uint256", big.NewInt(0x11)), "Panic(code: 0x11 arithmetic overflow)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DecodeRevert(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Error(); got != tc.want || strings.ContainsAny(got, "\x1b\n") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDecodeRevertRefuses(t *testing.T) {
	valid := packError(t, vesterABI, "AmountExceedsUnlocked", big.NewInt(1), big.NewInt(2))
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNoRevertData},
		{"short", []byte{1, 2}, ErrUnknownRevert},
		{"unknown selector", []byte{1, 2, 3, 4}, ErrUnknownRevert},
		{"truncated arguments", valid[:20], ErrUnknownRevert},
		{"too long", append(valid, make([]byte, maxRevertData)...), ErrUnknownRevert},
	} {
		if _, err := DecodeRevert(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// dataError is a JSON-RPC error with data, as eth_call's revert is.
type dataError struct {
	msg  string
	data any
}

func (e dataError) Error() string  { return e.msg }
func (e dataError) ErrorData() any { return e.data }

func TestRevertReason(t *testing.T) {
	zero := packError(t, vesterABI, "ZeroAmount")
	for _, tc := range []struct {
		name   string
		err    error
		want   string
		revert bool
	}{
		{"decoded", dataError{"execution reverted", hexutil.Encode(zero)}, "ZeroAmount()", true},
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

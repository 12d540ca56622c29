package chain

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

func packError(t testing.TB, contract *Contract, name string, args ...any) []byte {
	t.Helper()
	e, ok := contract.ABI.Errors[name]
	if !ok {
		t.Fatalf("%s has no error %s", contract.Name, name)
	}
	packed, err := e.Inputs.Pack(args...)
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]byte(nil), e.ID[:4]...), packed...)
}

func packBuiltin(t testing.TB, signature, typ string, arg any) []byte {
	t.Helper()
	ty, err := abi.NewType(typ, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := abi.Arguments{{Type: ty}}.Pack(arg)
	if err != nil {
		t.Fatal(err)
	}
	id := abi.NewError(signature, abi.Arguments{{Type: ty}}).ID
	return append(id[:4:4], packed...)
}

func TestDecodeRevert(t *testing.T) {
	who := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"vester error", packError(t, Vester, "AmountExceedsUnlocked", big.NewInt(5), big.NewInt(2)),
			"AmountExceedsUnlocked(requested: 5, available: 2)"},
		{"no arguments", packError(t, Vester, "InvalidProof"), "InvalidProof()"},
		{"uint32 argument", packError(t, Vester, "UnknownRoot", uint32(7)), "UnknownRoot(rootIndex: 7)"},
		{"token error", packError(t, Token, "ERC20InsufficientBalance", who, big.NewInt(1), big.NewInt(2)),
			"ERC20InsufficientBalance(sender: " + who.Hex() + ", balance: 1, needed: 2)"},
		{"staking error", packError(t, Staking, "NoSuchStake", big.NewInt(3), big.NewInt(3)), "NoSuchStake(index: 3, count: 3)"},
		{"require message", packBuiltin(t, "Error", "string", "no\nway"), `Error(message: "no^Jway")`}, // sanitized
		{"panic", packBuiltin(t, "Panic", "uint256", big.NewInt(0x11)), "Panic(code: 0x11 arithmetic overflow)"},
		{"unknown panic code", packBuiltin(t, "Panic", "uint256", big.NewInt(0x99)), "Panic(code: 0x99)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DecodeRevert(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			wantRevert(t, r, tc.want)
		})
	}
}

func TestDecodeRevertRefuses(t *testing.T) {
	valid := packError(t, Vester, "AmountExceedsUnlocked", big.NewInt(5), big.NewInt(2))
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNoRevertData},
		{"short selector", []byte{1, 2}, ErrUnknownRevert},
		{"unknown selector", []byte{0xde, 0xad, 0xbe, 0xef}, ErrUnknownRevert},
		{"truncated arguments", valid[:len(valid)-1], ErrUnknownRevert},
		{"too long", append(valid, make([]byte, maxRevertData)...), ErrUnknownRevert},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r, err := DecodeRevert(tc.data); !errors.Is(err, tc.want) {
				t.Errorf("DecodeRevert = %v, %v; want %v", r, err, tc.want)
			}
		})
	}
}

type dataError struct{ data any }

func (e dataError) Error() string  { return "execution reverted" }
func (e dataError) ErrorData() any { return e.data }

var _ rpc.DataError = dataError{}

func TestRevertData(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want []byte
		ok   bool
	}{
		{"hex data", dataError{"0x01020304"}, []byte{1, 2, 3, 4}, true},
		{"wrapped", errors.Join(errors.New("estimate gas"), dataError{"0x0102"}), []byte{1, 2}, true},
		{"not hex", dataError{"zz"}, nil, false},
		{"not a string", dataError{42}, nil, false},
		{"no data", errors.New("connection refused"), nil, false},
		{"too long", dataError{hexutil.Encode(make([]byte, maxRevertData+1))}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := RevertData(tc.err)
			if ok != tc.ok || string(got) != string(tc.want) {
				t.Errorf("RevertData = %x, %v; want %x, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// FuzzDecodeRevert: revert data comes from the network; decoding it must
// never panic, and what decodes must print as one safe line.
func FuzzDecodeRevert(f *testing.F) {
	f.Add(packError(f, Vester, "AmountExceedsUnlocked", big.NewInt(5), big.NewInt(2)))
	f.Add(packError(f, Vester, "UnknownAllocationType", "calendar\x1b[31m"))
	f.Add(packError(f, Staking, "WrongFee", big.NewInt(1), big.NewInt(0)))
	f.Add(packBuiltin(f, "Error", "string", "reason"))
	f.Add(packBuiltin(f, "Panic", "uint256", big.NewInt(0x32)))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeRevert(data)
		if err != nil {
			return
		}
		line := r.Error()
		for _, c := range line {
			if c < 0x20 || c == 0x7f {
				t.Fatalf("decoded line has control character %q: %q", c, line)
			}
		}
	})
}

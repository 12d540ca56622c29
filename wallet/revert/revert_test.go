package revert

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/assets"
	"allot/internal/sanitize"
)

func abiOf(t testing.TB, name string) abi.ABI {
	t.Helper()
	a, err := assets.ABI(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func vester(t testing.TB) abi.ABI { return abiOf(t, assets.VesterContract) }
func token(t testing.TB) abi.ABI  { return abiOf(t, assets.TokenContract) }
func staking(t testing.TB) abi.ABI {
	return abiOf(t, assets.StakingContract)
}

func packError(t testing.TB, contract abi.ABI, name string, args ...any) []byte {
	t.Helper()
	e := contract.Errors[name]
	data, err := e.Inputs.Pack(args...)
	if err != nil {
		t.Fatal(err)
	}
	return append(e.ID[:4:4], data...)
}

func packBuiltin(t testing.TB, signature, typ string, arg any) []byte {
	t.Helper()
	ty, _ := abi.NewType(typ, "", nil)
	data, err := abi.Arguments{{Type: ty}}.Pack(arg)
	if err != nil {
		t.Fatal(err)
	}
	id := abi.NewError(signature, abi.Arguments{{Type: ty}}).ID
	return append(id[:4:4], data...)
}

// dataError is a JSON-RPC error with data, as eth_call's revert is.
type dataError struct {
	data any
}

func (e dataError) Error() string  { return "execution reverted" }
func (e dataError) ErrorData() any { return e.data }

func TestDecode(t *testing.T) {
	pool := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"vester error", packError(t, vester(t), "InsufficientFunds"), "InsufficientFunds()"},
		{"no arguments", packError(t, vester(t), "InvalidMerkleProof"), "InvalidMerkleProof()"},
		{"two arguments", packError(t, staking(t), "WrongFee", big.NewInt(0), big.NewInt(5)), "WrongFee(expected: 0, sent: 5)"},
		{"root past the end", packBuiltin(t, "Panic", "uint256", big.NewInt(0x32)), "Panic(code: 0x32 array index out of bounds)"},
		{"token error", packError(t, token(t), "ERC20InsufficientAllowance", pool, big.NewInt(0), big.NewInt(5)),
			"ERC20InsufficientAllowance(spender: " + pool.Hex() + ", allowance: 0, needed: 5)"},
		{"Error(string)", packBuiltin(t, "Error", "string", "not enough\nfunds"), sanitize.Line("not enough\nfunds")},
		{"Panic(uint256)", packBuiltin(t, "Panic", "uint256", big.NewInt(0x11)), "Panic(code: 0x11 arithmetic overflow)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decode(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Error(); got != tc.want || strings.ContainsAny(got, "\x1b\n") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDecodeRefuses(t *testing.T) {
	valid := packError(t, staking(t), "NoSuchStake", big.NewInt(1), big.NewInt(2))
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNoData},
		{"short", []byte{1, 2}, ErrUnknown},
		{"unknown selector", []byte{1, 2, 3, 4}, ErrUnknown},
		{"truncated arguments", valid[:20], ErrUnknown},
		{"too long", append(valid, make([]byte, maxRevertData)...), ErrUnknown},
	} {
		if _, err := Decode(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestData(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want []byte
		ok   bool
	}{
		{"hex data", dataError{data: "0x01020304"}, []byte{1, 2, 3, 4}, true},
		{"wrapped", errors.Join(errors.New("estimate gas"), dataError{data: "0x0102"}), []byte{1, 2}, true},
		{"not hex", dataError{data: "zz"}, nil, false},
		{"not a string", dataError{data: 42}, nil, false},
		{"no data", errors.New("connection refused"), nil, false},
		{"too long", dataError{data: hexutil.Encode(make([]byte, maxRevertData+1))}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Data(tc.err)
			if ok != tc.ok || string(got) != string(tc.want) {
				t.Errorf("Data = %x, %v; want %x, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// FuzzDecode: revert data comes from the network; decoding it must
// never panic, and what decodes must print as one safe line.
func FuzzDecode(f *testing.F) {
	f.Add(packError(f, vester(f), "InsufficientFunds"))
	f.Add(packError(f, vester(f), "AccessControlUnauthorizedAccount", common.Address{1}, [32]byte{2}))
	f.Add(packError(f, abiOf(f, assets.StakingContract), "WrongFee", big.NewInt(1), big.NewInt(0)))
	f.Add(packBuiltin(f, "Error", "string", "reason"))
	f.Add(packBuiltin(f, "Panic", "uint256", big.NewInt(0x32)))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data)
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

// A production vester's revert is named in its words, with what it means:
// a refused estimate read "unknown data 0x356680b7" before.
func TestDecodeProductionVesterErrors(t *testing.T) {
	for data, want := range map[string][2]string{
		"0x356680b7":                                     {"InsufficientFunds()", "more than is withdrawable"},
		hexutil.Encode(crypto4("AmountZero()")):          {"AmountZero()", "nothing is withdrawable now"},
		hexutil.Encode(crypto4("AlreadyTerminated()")):   {"AlreadyTerminated()", "the allocation is already cancelled or revoked"},
		hexutil.Encode(crypto4("NotTransferable()")):     {"NotTransferable()", "the allocation may not be transferred by this sender"},
		hexutil.Encode(crypto4("InvalidFeeFundsSent()")): {"InvalidFeeFundsSent()", "the ether sent is not exactly the claim fee"},
	} {
		r, err := Decode(hexutil.MustDecode(data))
		if err != nil {
			t.Errorf("%s: %v", data, err)
			continue
		}
		if r.Error() != want[0] || !strings.HasPrefix(r.Meaning(), want[1]) {
			t.Errorf("%s = %q, meaning %q; want %q, %q", data, r.Error(), r.Meaning(), want[0], want[1])
		}
	}
}

// crypto4 is the selector of an error without arguments.
func crypto4(signature string) []byte {
	id := abi.NewError(strings.TrimSuffix(signature, "()"), nil).ID
	return id[:4]
}

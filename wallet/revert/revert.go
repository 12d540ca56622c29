// Package revert decodes why a call to allot's contracts reverted: a custom
// error of the vester, the staking pool or the token, or Solidity's
// Error(string) and Panic(uint256). The client (wallet) and the sandbox's
// chain share it.
package revert

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"allot/assets"
	"allot/internal/sanitize"
	"allot/wallet/vesterabi"
)

// Error is why a call reverted, decoded with the ABIs allot knows: a custom
// error of the vester, the staking pool or the token, or Solidity's
// Error(string) and Panic(uint256). Its Error text is one line such as
// "AmountExceedsUnlocked(requested: 5000, available: 2000)", safe for a
// terminal.
type Error struct {
	Name   string
	Params []Param
}

// Param is one argument of a Revert, Value as the ABI decoder yields
// it for Type: *big.Int for integers, common.Address, string, [32]byte.
type Param struct {
	Name  string
	Type  string
	Value any
}

// Errors of Decode.
var (
	// ErrNoData: the call reverted without saying why.
	ErrNoData = errors.New("reverted without data")
	// ErrUnknown: the data is not an error allot knows.
	ErrUnknown = errors.New("unknown revert")
)

// maxRevertData bounds revert data taken from a node.
const maxRevertData = 16 << 10

// maxRevertString bounds a string argument in Revert.Error, in runes.
const maxRevertString = 120

var revertErrors = func() map[[4]byte]abi.Error {
	out := map[[4]byte]abi.Error{}
	add := func(e abi.Error) { out[[4]byte(e.ID[:4])] = e }
	for _, name := range []string{assets.TokenContract, assets.VesterContract, assets.StakingContract} {
		contract, err := assets.ABI(name)
		if err != nil {
			// The artifacts are embedded and checked by the assets tests.
			panic(fmt.Sprintf("revert: %v", err))
		}
		for _, e := range contract.Errors {
			add(e)
		}
	}
	// The production vester's own errors: a real deployment's reverts are
	// named in its words, whatever the sandbox's contract declares.
	for _, e := range vesterabi.ABI.Errors {
		add(e)
	}
	stringType, _ := abi.NewType("string", "", nil)
	uintType, _ := abi.NewType("uint256", "", nil)
	add(abi.NewError("Error", abi.Arguments{{Name: "message", Type: stringType}}))
	add(abi.NewError("Panic", abi.Arguments{{Name: "code", Type: uintType}}))
	return out
}()

// Decode decodes revert data. It fails with ErrNoData for empty data and
// with an error wrapping ErrUnknown for anything it cannot read.
func Decode(data []byte) (*Error, error) {
	switch {
	case len(data) == 0:
		return nil, ErrNoData
	case len(data) < 4:
		return nil, fmt.Errorf("%w: %d bytes", ErrUnknown, len(data))
	case len(data) > maxRevertData:
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrUnknown, len(data), maxRevertData)
	}
	e, ok := revertErrors[[4]byte(data[:4])]
	if !ok {
		return nil, fmt.Errorf("%w: selector %s", ErrUnknown, hexutil.Encode(data[:4]))
	}
	values, err := e.Inputs.Unpack(data[4:])
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnknown, e.Name, err)
	}
	r := &Error{Name: e.Name, Params: make([]Param, len(values))}
	for i, v := range values {
		r.Params[i] = Param{Name: e.Inputs[i].Name, Type: e.Inputs[i].Type.String(), Value: v}
	}
	return r, nil
}

// Data returns the revert data a JSON-RPC error carries (eth_call and
// eth_estimateGas send it as the error's data), if any.
func Data(err error) ([]byte, bool) {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	s, ok := de.ErrorData().(string)
	if !ok || len(s) > 2+2*maxRevertData {
		return nil, false
	}
	data, decodeErr := hexutil.Decode(s)
	if decodeErr != nil {
		return nil, false
	}
	return data, true
}

// Error returns the revert as one line, Name(param: value, ...), integers
// in base units; for Solidity's Error(string), the reason alone.
func (r *Error) Error() string {
	if r.Name == "Error" && len(r.Params) == 1 {
		if reason, ok := r.Params[0].Value.(string); ok {
			return sanitize.Truncate(reason, maxRevertString)
		}
	}
	var b strings.Builder
	b.WriteString(r.Name)
	b.WriteByte('(')
	for i, p := range r.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Name != "" {
			b.WriteString(p.Name)
			b.WriteString(": ")
		}
		b.WriteString(r.format(p.Value))
	}
	b.WriteByte(')')
	return b.String()
}

// Meaning says in plain words what a production vester's error means,
// for the errors a stakeholder meets; empty for others.
func (r *Error) Meaning() string {
	if len(r.Params) != 0 {
		return ""
	}
	return vesterabi.Meanings[r.Name]
}

// panicCodes are the meanings of Solidity's Panic(uint256) codes.
var panicCodes = map[uint64]string{
	0x01: "assertion failed",
	0x11: "arithmetic overflow",
	0x12: "division by zero",
	0x21: "invalid enum value",
	0x22: "bad storage byte array",
	0x31: "pop from empty array",
	0x32: "array index out of bounds",
	0x41: "out of memory",
	0x51: "call to zero function",
}

func (r *Error) format(v any) string {
	switch v := v.(type) {
	case *big.Int:
		if r.Name == "Panic" && v.IsUint64() {
			code := fmt.Sprintf("%#x", v.Uint64())
			if meaning := panicCodes[v.Uint64()]; meaning != "" {
				return code + " " + meaning
			}
			return code
		}
		return v.String()
	case common.Address:
		return v.Hex()
	case string:
		return `"` + sanitize.Truncate(v, maxRevertString) + `"`
	case [32]byte:
		return hexutil.Encode(v[:])
	case []byte:
		return hexutil.Encode(v)
	default:
		return sanitize.Truncate(fmt.Sprint(v), maxRevertString)
	}
}

package wallet

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"allot/sanitize"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// Revert is why a call reverted, decoded with the ABIs allot knows: a custom
// error of the vester, the staking pool or the token, or Solidity's
// Error(string) and Panic(uint256). Its Error text is one line such as
// "AmountExceedsUnlocked(requested: 5000, available: 2000)", safe for a
// terminal.
//
// The sandbox chain (api/sandbox/chain) decodes reverts of the same
// contracts for its own tests; the client keeps its own decoder so that it
// does not depend on the sandbox.
type Revert struct {
	Name   string
	Params []RevertParam
}

// RevertParam is one argument of a Revert, Value as the ABI decoder yields
// it for Type: *big.Int for integers, common.Address, string, [32]byte.
type RevertParam struct {
	Name  string
	Type  string
	Value any
}

// Errors of DecodeRevert.
var (
	// ErrNoRevertData: the call reverted without saying why.
	ErrNoRevertData = errors.New("reverted without data")
	// ErrUnknownRevert: the data is not an error allot knows.
	ErrUnknownRevert = errors.New("unknown revert")
)

// maxRevertData bounds revert data taken from a node.
const maxRevertData = 16 << 10

// maxRevertString bounds a string argument in Revert.Error, in runes.
const maxRevertString = 120

var revertErrors = func() map[[4]byte]abi.Error {
	out := map[[4]byte]abi.Error{}
	add := func(e abi.Error) { out[[4]byte(e.ID[:4])] = e }
	for _, contract := range []abi.ABI{tokenABI, vesterABI, stakingABI} {
		for _, e := range contract.Errors {
			add(e)
		}
	}
	stringType, _ := abi.NewType("string", "", nil)
	uintType, _ := abi.NewType("uint256", "", nil)
	add(abi.NewError("Error", abi.Arguments{{Name: "message", Type: stringType}}))
	add(abi.NewError("Panic", abi.Arguments{{Name: "code", Type: uintType}}))
	return out
}()

// DecodeRevert decodes revert data. It fails with ErrNoRevertData for empty
// data and with an error wrapping ErrUnknownRevert for anything it cannot
// read.
func DecodeRevert(data []byte) (*Revert, error) {
	switch {
	case len(data) == 0:
		return nil, ErrNoRevertData
	case len(data) < 4:
		return nil, fmt.Errorf("%w: %d bytes", ErrUnknownRevert, len(data))
	case len(data) > maxRevertData:
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrUnknownRevert, len(data), maxRevertData)
	}
	e, ok := revertErrors[[4]byte(data[:4])]
	if !ok {
		return nil, fmt.Errorf("%w: selector %s", ErrUnknownRevert, hexutil.Encode(data[:4]))
	}
	values, err := e.Inputs.Unpack(data[4:])
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnknownRevert, e.Name, err)
	}
	r := &Revert{Name: e.Name, Params: make([]RevertParam, len(values))}
	for i, v := range values {
		r.Params[i] = RevertParam{Name: e.Inputs[i].Name, Type: e.Inputs[i].Type.String(), Value: v}
	}
	return r, nil
}

// revertData returns the revert data a JSON-RPC error carries (eth_call and
// eth_estimateGas send it as the error's data), if any.
func revertData(err error) ([]byte, bool) {
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

// revertReason explains err, the failure of a call or a gas estimate: the
// decoded revert when the node sent revert data, else the node's own words,
// sanitized and cut short. ok is false when err is not a revert at all (the
// node could not be reached, say).
func revertReason(err error) (reason string, ok bool) {
	if data, has := revertData(err); has {
		r, decodeErr := DecodeRevert(data)
		if decodeErr != nil {
			return fmt.Sprintf("reverted with unknown data %s", sanitize.Truncate(hexutil.Encode(data), 80)), true
		}
		return r.Error(), true
	}
	msg := err.Error()
	if strings.Contains(msg, "revert") || strings.Contains(msg, "out of gas") || strings.Contains(msg, "invalid opcode") {
		return sanitize.Truncate(msg, maxRevertString), true
	}
	return "", false
}

// Error returns the revert as one line, Name(param: value, ...), integers
// in base units; for Solidity's Error(string), the reason alone.
func (r *Revert) Error() string {
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

func (r *Revert) format(v any) string {
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
	default:
		return sanitize.Truncate(fmt.Sprint(v), maxRevertString)
	}
}

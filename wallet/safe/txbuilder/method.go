package txbuilder

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// Method is a contract call as the Transaction Builder records one built
// from an ABI: the function, its inputs and the values typed for them.
type Method struct {
	Name    string
	Payable bool
	Inputs  []Input
	// Values are the values typed for the inputs, by input name, as text.
	Values map[string]string
}

// Input is one of a method's parameters.
type Input struct {
	Name, Type string
}

// Signature is the function's signature, as its selector hashes it.
func (m *Method) Signature() string {
	types := make([]string, len(m.Inputs))
	for i, in := range m.Inputs {
		types[i] = in.Type
	}
	return m.Name + "(" + strings.Join(types, ",") + ")"
}

var (
	identifier  = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]{0,63}$`)
	sizedType   = regexp.MustCompile(`^(uint|int|bytes)([0-9]{1,3})$`)
	integerText = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,77})$`)
)

func (w *wireMethod) method(values map[string]string) (*Method, error) {
	if !identifier.MatchString(w.Name) {
		return nil, fmt.Errorf("contract method %q is not a function name", clip(w.Name))
	}
	m := &Method{Name: w.Name, Payable: w.Payable, Values: values}
	for _, in := range w.Inputs {
		if len(in.Components) > 0 {
			return nil, fmt.Errorf("%s: input %q is a tuple, which allot does not encode", w.Name, clip(in.Name))
		}
		if _, ok := values[in.Name]; !ok {
			return nil, fmt.Errorf("%s: no value for input %q", w.Name, clip(in.Name))
		}
		m.Inputs = append(m.Inputs, Input{Name: in.Name, Type: in.Type})
	}
	return m, nil
}

// Encode is the method's calldata: its selector and its values, ABI
// encoded. It encodes what a treasury's calls take (address, bool, intN,
// uintN, bytesN, bytes, string) and refuses arrays and tuples, whose text
// form the Transaction Builder parses by rules of its own.
func (m *Method) Encode() ([]byte, error) {
	var head, tail []byte
	headSize := 32 * len(m.Inputs)
	for _, in := range m.Inputs {
		v := m.Values[in.Name]
		word, dynamic, err := encodeValue(in.Type, v)
		if err != nil {
			return nil, fmt.Errorf("%s: input %q: %w", m.Name, clip(in.Name), err)
		}
		if !dynamic {
			head = append(head, word...)
			continue
		}
		head = append(head, common.LeftPadBytes(big.NewInt(int64(headSize+len(tail))).Bytes(), 32)...)
		tail = append(tail, word...)
	}
	selector := crypto.Keccak256([]byte(m.Signature()))[:4]
	return append(append(selector, head...), tail...), nil
}

// encodeValue encodes one value of type typ: a static type's word, or a
// dynamic type's length and padded content.
func encodeValue(typ, v string) (out []byte, dynamic bool, err error) {
	switch typ {
	case "address":
		a, err := address("the address", v)
		return common.LeftPadBytes(a[:], 32), false, err
	case "bool":
		switch v {
		case "true":
			return common.LeftPadBytes([]byte{1}, 32), false, nil
		case "false":
			return make([]byte, 32), false, nil
		}
		return nil, false, fmt.Errorf("%q is neither true nor false", clip(v))
	case "string":
		return dynamicBytes([]byte(v)), true, nil
	case "bytes":
		b, err := hexutil.Decode(v)
		if err != nil {
			return nil, false, fmt.Errorf("%q is not hex: %w", clip(v), err)
		}
		return dynamicBytes(b), true, nil
	}
	m := sizedType.FindStringSubmatch(typ)
	if m == nil {
		return nil, false, fmt.Errorf("type %q is not one allot encodes", clip(typ))
	}
	size, _ := strconv.Atoi(m[2])
	if m[1] == "bytes" {
		return fixedBytes(size, v)
	}
	if size == 0 || size > 256 || size%8 != 0 {
		return nil, false, fmt.Errorf("type %q is no ABI type", typ)
	}
	return integer(m[1] == "int", size, v)
}

func fixedBytes(size int, v string) ([]byte, bool, error) {
	if size == 0 || size > 32 {
		return nil, false, fmt.Errorf("bytes%d is no ABI type", size)
	}
	b, err := hexutil.Decode(v)
	if err != nil || len(b) != size {
		return nil, false, fmt.Errorf("%q is not %d bytes in hex", clip(v), size)
	}
	return common.RightPadBytes(b, 32), false, nil
}

// integer encodes a decimal integer of size bits, signed or not, in two's
// complement.
func integer(signed bool, size int, v string) ([]byte, bool, error) {
	n, ok := new(big.Int).SetString(v, 10)
	if !ok || !integerText.MatchString(v) {
		return nil, false, fmt.Errorf("%q is not a decimal integer", clip(v))
	}
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(size))
	if signed {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	if n.Cmp(lo) < 0 || n.Cmp(hi) >= 0 {
		return nil, false, errors.New(clip(v) + " does not fit the type")
	}
	if n.Sign() < 0 {
		n.Add(n, new(big.Int).Lsh(big.NewInt(1), 256))
	}
	return common.LeftPadBytes(n.Bytes(), 32), false, nil
}

func dynamicBytes(b []byte) []byte {
	out := common.LeftPadBytes(big.NewInt(int64(len(b))).Bytes(), 32)
	padded := (len(b) + 31) / 32 * 32
	return append(out, common.RightPadBytes(b, padded)...)
}

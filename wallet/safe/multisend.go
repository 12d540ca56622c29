package safe

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// InnerCall is one call of a batch a Safe makes through MultiSendCallOnly.
type InnerCall struct {
	To    common.Address
	Value *big.Int // nil is zero
	Data  []byte
}

// multiSendSelector is multiSend(bytes)'s.
var multiSendSelector = crypto.Keccak256([]byte("multiSend(bytes)"))[:4]

// PackMultiSend is the calldata of MultiSendCallOnly's multiSend(bytes)
// for calls: each packed as uint8 operation (0, a call: the CallOnly
// contract refuses any other) ‖ address to ‖ uint256 value ‖ uint256 data
// length ‖ data, then ABI-encoded as one bytes argument. The Safe sends it
// by a delegatecall to the MultiSendCallOnly.
func PackMultiSend(calls []InnerCall) ([]byte, error) {
	if len(calls) == 0 {
		return nil, fmt.Errorf("multisend: no call")
	}
	var packed []byte
	for i, c := range calls {
		value, err := word("value", c.Value)
		if err != nil {
			return nil, fmt.Errorf("multisend: call %d: %w", i+1, err)
		}
		packed = append(packed, byte(Call))
		packed = append(packed, c.To[:]...)
		packed = append(packed, value...)
		packed = append(packed, common.LeftPadBytes(big.NewInt(int64(len(c.Data))).Bytes(), 32)...)
		packed = append(packed, c.Data...)
	}
	out := append([]byte{}, multiSendSelector...)
	out = append(out, common.LeftPadBytes([]byte{32}, 32)...) // the offset of the one argument
	out = append(out, common.LeftPadBytes(big.NewInt(int64(len(packed))).Bytes(), 32)...)
	return append(out, common.RightPadBytes(packed, (len(packed)+31)/32*32)...), nil
}

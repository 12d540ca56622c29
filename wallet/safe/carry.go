package safe

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// Carry is the Safe transaction that makes calls at nonce: one call is
// made as it is (operation call); several go as one delegatecall of
// multiSend to the MultiSendCallOnly at multiSend. The gas refund fields
// are zero: whoever executes it pays its gas, and the Safe pays no one
// for it.
func Carry(calls []InnerCall, multiSend common.Address, nonce *big.Int) (Tx, error) {
	switch len(calls) {
	case 0:
		return Tx{}, fmt.Errorf("safe transaction: no call")
	case 1:
		c := calls[0]
		return Tx{To: c.To, Value: orZero(c.Value), Data: bytes.Clone(c.Data), Operation: Call, Nonce: orZero(nonce)}, nil
	}
	data, err := PackMultiSend(calls)
	if err != nil {
		return Tx{}, err
	}
	return Tx{To: multiSend, Value: new(big.Int), Data: data, Operation: DelegateCall, Nonce: orZero(nonce)}, nil
}

// Equal reports whether a and b are the same Safe transaction, field by
// field, a nil number being zero.
func (a Tx) Equal(b Tx) bool {
	numbers := [][2]*big.Int{{a.Value, b.Value}, {a.SafeTxGas, b.SafeTxGas}, {a.BaseGas, b.BaseGas}, {a.GasPrice, b.GasPrice}, {a.Nonce, b.Nonce}}
	for _, n := range numbers {
		if orZero(n[0]).Cmp(orZero(n[1])) != 0 {
			return false
		}
	}
	return a.To == b.To && bytes.Equal(a.Data, b.Data) && a.Operation == b.Operation &&
		a.GasToken == b.GasToken && a.RefundReceiver == b.RefundReceiver
}

// Refunds reports whether tx pays anyone back for its gas from the
// Safe's funds (any of safeTxGas, baseGas, gasPrice, gasToken,
// refundReceiver set).
func (tx Tx) Refunds() bool {
	var zero common.Address
	return orZero(tx.SafeTxGas).Sign() != 0 || orZero(tx.BaseGas).Sign() != 0 || orZero(tx.GasPrice).Sign() != 0 ||
		tx.GasToken != zero || tx.RefundReceiver != zero
}

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

// Package safe reads a Safe (Safe{Wallet}'s multisig, versions 1.3.0 and
// 1.4.1) from the chain and computes the EIP-712 hash of a Safe
// transaction that its owners sign, the same hash the Safe computes
// itself (getTransactionHash) and that Safe{Wallet} and a hardware wallet
// show, so that co-signers can compare what they sign.
package safe

import (
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// Operation is how a Safe makes its call: a call, or a delegatecall that
// runs the target's code as the Safe itself (only ever for a MultiSend).
type Operation uint8

const (
	Call         Operation = 0
	DelegateCall Operation = 1
)

func (o Operation) String() string {
	switch o {
	case Call:
		return "call"
	case DelegateCall:
		return "delegatecall"
	}
	return "unknown operation"
}

// Tx is a Safe transaction: the fields of the SafeTx struct the owners
// sign. A nil number is zero. The gas refund fields (SafeTxGas, BaseGas,
// GasPrice, GasToken, RefundReceiver) are zero when the sender pays the
// gas itself, as in every transaction allot builds.
type Tx struct {
	To             common.Address
	Value          *big.Int
	Data           []byte
	Operation      Operation
	SafeTxGas      *big.Int
	BaseGas        *big.Int
	GasPrice       *big.Int
	GasToken       common.Address
	RefundReceiver common.Address
	Nonce          *big.Int
}

var (
	// ErrNotSafe: the contract is not a Safe proxy of a canonical Safe
	// 1.3.0 or 1.4.1 singleton, so nothing it answers can be trusted.
	ErrNotSafe = errors.New("not a Safe")
	// ErrBadAnswer: the node answered something no Safe answers.
	ErrBadAnswer = errors.New("an answer no Safe gives")
)

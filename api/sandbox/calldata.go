package sandbox

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// The two contract calls the sandbox builds. They are declared here rather
// than taken from the compiled contracts so that this package stays a
// second, independent reading of D8 and D11.
var (
	// withdrawMethod is the vester's claim call (D8):
	// withdraw(uint256 withdrawalAmount, uint32 rootIndex, bytes decodableArgs, bytes32[] proof).
	withdrawMethod = newMethod("withdraw",
		argument("withdrawalAmount", "uint256"),
		argument("rootIndex", "uint32"),
		argument("decodableArgs", "bytes"),
		argument("proof", "bytes32[]"),
	)
	// stakeMethod is a staking pool's stake(uint256 amount) (D11).
	stakeMethod = newMethod("stake", argument("amount", "uint256"))
)

func newMethod(name string, inputs ...abi.Argument) abi.Method {
	return abi.NewMethod(name, name, abi.Function, "payable", false, true, inputs, nil)
}

func argument(name, typ string) abi.Argument {
	t, err := abi.NewType(typ, "", nil)
	if err != nil {
		panic(fmt.Sprintf("sandbox: abi type %s: %v", typ, err))
	}
	return abi.Argument{Name: name, Type: t}
}

// packWithdraw returns the calldata of withdraw.
func packWithdraw(amount *big.Int, rootIndex uint32, decodableArgs []byte, proof []common.Hash) ([]byte, error) {
	nodes := make([][32]byte, len(proof))
	for i, h := range proof {
		nodes[i] = h
	}
	args, err := withdrawMethod.Inputs.Pack(amount, rootIndex, decodableArgs, nodes)
	if err != nil {
		return nil, fmt.Errorf("pack withdraw: %w", err)
	}
	return append(withdrawMethod.ID, args...), nil
}

// packStake returns the calldata of stake.
func packStake(amount *big.Int) ([]byte, error) {
	args, err := stakeMethod.Inputs.Pack(amount)
	if err != nil {
		return nil, fmt.Errorf("pack stake: %w", err)
	}
	return append(stakeMethod.ID, args...), nil
}

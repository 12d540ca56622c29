package sandbox

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// The contract calls the sandbox builds or reads. They are declared here
// rather than taken from the compiled contracts so that this package stays
// a second, independent reading of D8, D11 and D18.
var (
	// withdrawMethod is the vester's claim call (D8):
	// withdraw(uint256 withdrawalAmount, uint32 rootIndex, bytes decodableArgs, bytes32[] proof).
	withdrawMethod = newMethod("withdraw",
		argument("withdrawalAmount", "uint256"),
		argument("rootIndex", "uint32"),
		argument("decodableArgs", "bytes"),
		argument("proof", "bytes32[]"),
	)
	// withdrawThroughMethod is the vester's second withdraw (D18), which
	// pays a post-claim handler and calls it: withdraw(uint256
	// withdrawalAmount, uint32 rootIndex, bytes decodableArgs, bytes32[]
	// proof, address postClaimHandler, bytes extraData).
	withdrawThroughMethod = newMethod("withdraw",
		argument("withdrawalAmount", "uint256"),
		argument("rootIndex", "uint32"),
		argument("decodableArgs", "bytes"),
		argument("proof", "bytes32[]"),
		argument("postClaimHandler", "address"),
		argument("extraData", "bytes"),
	)
	// stakeMethod is a staking pool's stake(uint256 amount) (D11).
	stakeMethod = newMethod("stake", argument("amount", "uint256"))
	// schedulesMethod is the vester's public getter of an allocation's
	// state (D18): schedules(string allocationId) returns (address
	// withdrawalAddress, uint32 terminatedTimestamp, uint256 withdrawn,
	// uint256 terminatedWithdrawn, uint256 fundedAmount, uint256
	// terminatedAmount).
	schedulesMethod = abi.NewMethod("schedules", "schedules", abi.Function, "view", false, false,
		abi.Arguments{argument("allocationId", "string")},
		abi.Arguments{
			argument("withdrawalAddress", "address"),
			argument("terminatedTimestamp", "uint32"),
			argument("withdrawn", "uint256"),
			argument("terminatedWithdrawn", "uint256"),
			argument("fundedAmount", "uint256"),
			argument("terminatedAmount", "uint256"),
		})
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
	args, err := withdrawMethod.Inputs.Pack(amount, rootIndex, decodableArgs, proofNodes(proof))
	if err != nil {
		return nil, fmt.Errorf("pack withdraw: %w", err)
	}
	return append(withdrawMethod.ID, args...), nil
}

// packWithdrawThrough returns the calldata of the withdraw through a
// post-claim handler, with no extra data.
func packWithdrawThrough(amount *big.Int, rootIndex uint32, decodableArgs []byte, proof []common.Hash, handler common.Address) ([]byte, error) {
	args, err := withdrawThroughMethod.Inputs.Pack(amount, rootIndex, decodableArgs, proofNodes(proof), handler, []byte{})
	if err != nil {
		return nil, fmt.Errorf("pack withdraw through %s: %w", handler.Hex(), err)
	}
	return append(withdrawThroughMethod.ID, args...), nil
}

func proofNodes(proof []common.Hash) [][32]byte {
	nodes := make([][32]byte, len(proof))
	for i, h := range proof {
		nodes[i] = h
	}
	return nodes
}

// packStake returns the calldata of stake.
func packStake(amount *big.Int) ([]byte, error) {
	args, err := stakeMethod.Inputs.Pack(amount)
	if err != nil {
		return nil, fmt.Errorf("pack stake: %w", err)
	}
	return append(stakeMethod.ID, args...), nil
}

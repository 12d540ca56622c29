package wallet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// view calls a view function at to on the latest block and returns its one
// result.
func view[T any](ctx context.Context, caller ethereum.ContractCaller, contract abi.ABI, to common.Address, method string, args ...any) (T, error) {
	var zero T
	values, err := viewAll(ctx, caller, contract, to, method, args...)
	if err != nil {
		return zero, err
	}
	if len(values) != 1 {
		return zero, fmt.Errorf("%s at %s: %d results, want 1", method, to.Hex(), len(values))
	}
	v, ok := values[0].(T)
	if !ok {
		return zero, fmt.Errorf("%s at %s: unexpected result %T", method, to.Hex(), values[0])
	}
	return v, nil
}

// viewAll calls a function at to on the latest block and returns all its
// results. eth_call runs any function, a view or not, and keeps nothing.
func viewAll(ctx context.Context, caller ethereum.ContractCaller, contract abi.ABI, to common.Address, method string, args ...any) ([]any, error) {
	data, err := contract.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	out, err := caller.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	if len(out) == 0 {
		// What an address without code answers.
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), ErrNoContract)
	}
	values, err := contract.Unpack(method, out)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	return values, nil
}

// PlatformFee reads the staking pool's fee in wei: the exact value its stake
// takes.
func PlatformFee(ctx context.Context, caller ethereum.ContractCaller, pool common.Address) (*big.Int, error) {
	return view[*big.Int](ctx, caller, stakingABI, pool, "platformFee")
}

// StakingToken reads the ERC-20 a staking pool takes.
func StakingToken(ctx context.Context, caller ethereum.ContractCaller, pool common.Address) (common.Address, error) {
	return view[common.Address](ctx, caller, stakingABI, pool, "stakingToken")
}

// Allowance reads how much of owner's token spender may move, in base units.
func Allowance(ctx context.Context, caller ethereum.ContractCaller, token, owner, spender common.Address) (*big.Int, error) {
	return view[*big.Int](ctx, caller, tokenABI, token, "allowance", owner, spender)
}

// TokenBalance reads owner's balance of token, in base units.
func TokenBalance(ctx context.Context, caller ethereum.ContractCaller, token, owner common.Address) (*big.Int, error) {
	return view[*big.Int](ctx, caller, tokenABI, token, "balanceOf", owner)
}

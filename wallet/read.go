package wallet

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"allot/wallet/revert"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// view calls a view function at to on the latest block and returns its one
// result.
func view[T any](ctx context.Context, caller ethereum.ContractCaller, contract abi.ABI, to common.Address, method string, args ...any) (T, error) {
	var zero T
	data, err := contract.Pack(method, args...)
	if err != nil {
		return zero, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	out, err := caller.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return zero, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	if len(out) == 0 {
		// What an address without code answers.
		return zero, fmt.Errorf("%s at %s: %w", method, to.Hex(), ErrNoContract)
	}
	values, err := contract.Unpack(method, out)
	if err != nil {
		return zero, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
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

// MerkleRoot reads the vester's root number index (D8). merkleRoots is an
// array (D16): past its end the getter reverts without a reason, and
// MerkleRoot answers the zero hash, so that callers report "no root N" as
// a failed check rather than as a check that could not run.
func MerkleRoot(ctx context.Context, caller ethereum.ContractCaller, vester common.Address, index uint32) (common.Hash, error) {
	root, err := view[[32]byte](ctx, caller, vesterABI, vester, "merkleRoots", new(big.Int).SetUint64(uint64(index)))
	if err != nil && revertedWithoutData(err) {
		return common.Hash{}, nil
	}
	return root, err
}

// revertedWithoutData: the call reverted and said nothing, as a getter's
// bounds check does. Nodes send such a revert with empty data or, some of
// them, with no data at all.
func revertedWithoutData(err error) bool {
	if data, ok := revert.Data(err); ok {
		return len(data) == 0
	}
	return strings.Contains(err.Error(), "execution reverted")
}

// ClaimFee reads the vester's claim fee in wei: the exact value its withdraw
// takes.
func ClaimFee(ctx context.Context, caller ethereum.ContractCaller, vester common.Address) (*big.Int, error) {
	return view[*big.Int](ctx, caller, vesterABI, vester, "claimFee")
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

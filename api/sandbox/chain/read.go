package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// call runs a function of contract at to with eth_call on the head block:
// a view, or a state-changing function whose writes are dropped.
func (c *Chain) call(ctx context.Context, contract *Contract, to common.Address, method string, args ...any) ([]any, error) {
	data, err := contract.ABI.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", contract.Name, method, err)
	}
	out, err := c.client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s.%s at %s: %w", contract.Name, method, to.Hex(), err)
	}
	values, err := contract.ABI.Unpack(method, out)
	if err != nil {
		return nil, fmt.Errorf("%s.%s at %s: %w", contract.Name, method, to.Hex(), err)
	}
	return values, nil
}

// callBig runs a view function returning one uint256.
func (c *Chain) callBig(ctx context.Context, contract *Contract, to common.Address, method string, args ...any) (*big.Int, error) {
	values, err := c.call(ctx, contract, to, method, args...)
	if err != nil {
		return nil, err
	}
	v, ok := values[0].(*big.Int)
	if !ok {
		return nil, fmt.Errorf("%s.%s: unexpected result %T", contract.Name, method, values[0])
	}
	return v, nil
}

// BalanceOf returns owner's balance of token, in base units.
func (c *Chain) BalanceOf(ctx context.Context, token, owner common.Address) (*big.Int, error) {
	return c.callBig(ctx, Token, token, "balanceOf", owner)
}

// Allowance returns how much of owner's token spender may move.
func (c *Chain) Allowance(ctx context.Context, token, owner, spender common.Address) (*big.Int, error) {
	return c.callBig(ctx, Token, token, "allowance", owner, spender)
}

// MerkleRoot returns the vester's root number index. merkleRoots is an
// array: reading past its end reverts (without data), and a withdraw
// naming such a root reverts with Panic 0x32.
func (c *Chain) MerkleRoot(ctx context.Context, vester common.Address, index uint64) (common.Hash, error) {
	values, err := c.call(ctx, Vester, vester, "merkleRoots", new(big.Int).SetUint64(index))
	if err != nil {
		return common.Hash{}, err
	}
	root, ok := values[0].([32]byte)
	if !ok {
		return common.Hash{}, fmt.Errorf("Vester.merkleRoots: unexpected result %T", values[0])
	}
	return root, nil
}

// Schedule is what happened to an allocation since its leaf was
// committed: the vester's schedules(allocationId) (docs/deployment.md D18).
type Schedule struct {
	// WithdrawalAddress receives the allocation's claims; zero until the
	// allocation's first withdraw or transfer, which means the leaf's
	// originalBeneficiary.
	WithdrawalAddress common.Address
	// TerminatedTimestamp is 0 while active, Revoked once revoked, else the
	// Unix time it was cancelled at.
	TerminatedTimestamp uint32
	Withdrawn           *big.Int
	// The rest are never written by a merkle vester, and read 0.
	TerminatedWithdrawn, FundedAmount, TerminatedAmount *big.Int
}

// Revoked is the TerminatedTimestamp of a revoked allocation: its vesting
// is computed at time 1, when nothing has vested.
const Revoked = 1

// Schedule reads an allocation's state on the vester. An allocation the
// vester never touched reads all zero.
func (c *Chain) Schedule(ctx context.Context, vester common.Address, allocationID string) (Schedule, error) {
	values, err := c.call(ctx, Vester, vester, "schedules", allocationID)
	if err != nil {
		return Schedule{}, err
	}
	if len(values) != 6 {
		return Schedule{}, fmt.Errorf("the vester's schedules: %d results, want 6", len(values))
	}
	var s Schedule
	var ok [6]bool
	s.WithdrawalAddress, ok[0] = values[0].(common.Address)
	s.TerminatedTimestamp, ok[1] = values[1].(uint32)
	s.Withdrawn, ok[2] = values[2].(*big.Int)
	s.TerminatedWithdrawn, ok[3] = values[3].(*big.Int)
	s.FundedAmount, ok[4] = values[4].(*big.Int)
	s.TerminatedAmount, ok[5] = values[5].(*big.Int)
	for i, good := range ok {
		if !good {
			return Schedule{}, fmt.Errorf("the vester's schedules: unexpected result %d: %T", i, values[i])
		}
	}
	return s, nil
}

// PostClaimHandlers returns the vester's whitelist of post-claim
// handlers; the zero address on it allows the direct claim.
func (c *Chain) PostClaimHandlers(ctx context.Context, vester common.Address) ([]common.Address, error) {
	values, err := c.call(ctx, Vester, vester, "getPostClaimHandlers")
	if err != nil {
		return nil, err
	}
	handlers, ok := values[0].([]common.Address)
	if !ok {
		return nil, fmt.Errorf("Vester.getPostClaimHandlers: unexpected result %T", values[0])
	}
	return handlers, nil
}

// Held returns what a PostClaimVault holds for owner.
func (c *Chain) Held(ctx context.Context, vault, owner common.Address) (*big.Int, error) {
	return c.callBig(ctx, PostClaimVault, vault, "held", owner)
}

// Unlocked returns what the vester computes an allocation's schedule has
// unlocked at t, from the leaf's decodableArgs (docs/deployment.md D8), before
// withdrawals.
func (c *Chain) Unlocked(ctx context.Context, vester common.Address, decodableArgs []byte, t time.Time) (*big.Int, error) {
	if t.Unix() < 0 {
		return nil, fmt.Errorf("unlocked at %s: before 1970", t)
	}
	return c.callBig(ctx, Vester, vester, "unlocked", decodableArgs, big.NewInt(t.Unix()))
}

// ClaimFee returns the vester's claim fee in wei.
func (c *Chain) ClaimFee(ctx context.Context, vester common.Address) (*big.Int, error) {
	return c.callBig(ctx, Vester, vester, "claimFee")
}

// ClaimFeeOf returns the exact value, in wei, the next withdraw of an
// allocation must carry: 0 after its first on a vester that asks the fee
// once. getClaimFee is not a view (as in production), so this is an
// eth_call of a state-changing function: nothing is written.
func (c *Chain) ClaimFeeOf(ctx context.Context, vester common.Address, allocationID string) (*big.Int, error) {
	return c.callBig(ctx, Vester, vester, "getClaimFee", allocationID)
}

// PlatformFee returns the staking pool's fee in wei.
func (c *Chain) PlatformFee(ctx context.Context, staking common.Address) (*big.Int, error) {
	return c.callBig(ctx, Staking, staking, "platformFee")
}

// TotalStaked returns the tokens staked in the pool.
func (c *Chain) TotalStaked(ctx context.Context, staking common.Address) (*big.Int, error) {
	return c.callBig(ctx, Staking, staking, "totalStaked")
}

// Stake is one stake recorded by a Staking contract.
type Stake struct {
	Staker common.Address
	Amount *big.Int
	At     time.Time // the time of the block that took it
}

// maxListedStakes bounds Stakes: one call per stake, and the sandbox's
// on-chain stakes are the ones made during a session.
const maxListedStakes = 10_000

// Stakes lists the pool's stakes in the order they were made.
func (c *Chain) Stakes(ctx context.Context, staking common.Address) ([]Stake, error) {
	count, err := c.callBig(ctx, Staking, staking, "stakeCount")
	if err != nil {
		return nil, err
	}
	if !count.IsUint64() || count.Uint64() > maxListedStakes {
		return nil, fmt.Errorf("list stakes of %s: %s stakes, more than %d", staking.Hex(), count, maxListedStakes)
	}
	stakes := make([]Stake, 0, count.Uint64())
	for i := range count.Uint64() {
		values, err := c.call(ctx, Staking, staking, "stakeAt", new(big.Int).SetUint64(i))
		if err != nil {
			return nil, err
		}
		staker, ok1 := values[0].(common.Address)
		amount, ok2 := values[1].(*big.Int)
		at, ok3 := values[2].(uint64)
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("Staking.stakeAt: unexpected result %T, %T, %T", values[0], values[1], values[2])
		}
		stakes = append(stakes, Stake{Staker: staker, Amount: amount, At: time.Unix(int64(at), 0).UTC()})
	}
	return stakes, nil
}

// vesterToken returns the token a vester pays out.
func (c *Chain) vesterToken(ctx context.Context, vester common.Address) (common.Address, error) {
	values, err := c.call(ctx, Vester, vester, "token")
	if err != nil {
		return common.Address{}, err
	}
	token, ok := values[0].(common.Address)
	if !ok {
		//lint:ignore ST1005 it starts with the contract's name, as Vester.merkleRoots's and Staking.stakeAt's errors above do
		return common.Address{}, fmt.Errorf("Vester.token: unexpected result %T", values[0])
	}
	return token, nil
}

func isNotFound(err error) bool {
	// A receipt asked for while the node still indexes its transactions
	// (geth's "transaction indexing is in progress", under load) is not
	// there yet either: asked again, it is.
	return errors.Is(err, ethereum.NotFound) || err != nil && strings.Contains(err.Error(), "transaction indexing is in progress")
}

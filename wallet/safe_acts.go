package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/vesterabi"
	"allot/wallet/vesting"
)

// SafeStake plans a stake of amount (base units) by the Safe safe in the
// staking contract pool, built by allot itself: a Safe cannot sign in to
// a portal to be handed stake parameters (D11), and needs none: the call
// is stake(amount), sending the pool's platformFee() read from the chain,
// with an approve of exactly the amount first when the Safe's allowance
// is short (PlanStake). CheckStake checks it as any stake.
func SafeStake(ctx context.Context, chain ethereum.ContractCaller, chainID uint64, safe, pool common.Address, amount *big.Int) (*StakePlan, error) {
	fee, err := PlatformFee(ctx, chain, pool)
	if err != nil {
		return nil, fmt.Errorf("the platform fee of %s: %w", pool.Hex(), err)
	}
	data, err := stakingABI.Pack("stake", amount)
	if err != nil {
		return nil, fmt.Errorf("build the stake: %w", err)
	}
	return PlanStake(ctx, chain, Call{ChainID: chainID, From: safe, To: pool, Data: data, Value: fee})
}

// SafeAct is what a batch of a Safe's calls does, as allot knows acts: a
// stake of Amount in the staking contract Pool (an approve first at
// most), a claim of Allocation (Amount nil: all that is vested), or a
// transfer of Allocation to the withdrawal address To.
type SafeAct struct {
	Op         string // "stake", "claim" or "transfer"
	Pool       common.Address
	Allocation string
	Amount     *big.Int
	To         common.Address
}

// ErrUnknownAct: calls that are no stake, claim or transfer, which allot
// has no policy to review.
var ErrUnknownAct = errors.New("allot reviews a Safe's stake (an approve, then the stake), claim (one withdraw) or transfer of beneficiary, nothing else")

// ClassifySafeCalls says which act calls are, from their calldata alone,
// so that a batch made elsewhere (a Transaction Builder file) is held to
// that act's policy; what the policy then finds wrong with them it
// refuses.
func ClassifySafeCalls(calls []Call) (SafeAct, error) {
	if len(calls) == 0 || len(calls) > 2 {
		return SafeAct{}, fmt.Errorf("%d calls: %w", len(calls), ErrUnknownAct)
	}
	last := calls[len(calls)-1]
	m, values, ok := decodeKnown(last.Data)
	if !ok {
		return SafeAct{}, fmt.Errorf("call %d to %s: calldata allot cannot decode: %w", len(calls), last.To.Hex(), ErrUnknownAct)
	}
	switch {
	case m.method.RawName == "stake":
		amount, _ := values[0].(*big.Int)
		return SafeAct{Op: "stake", Pool: last.To, Amount: amount}, nil
	case len(calls) == 1 && m.method.RawName == vesterabi.Withdraw && len(values) == 4:
		amount, _ := values[0].(*big.Int)
		args, _ := values[2].([]byte)
		decoded, err := vesting.Decode(args)
		if err != nil {
			return SafeAct{}, fmt.Errorf("the withdraw's decodableArgs do not decode: %w", err)
		}
		if amount != nil && amount.Sign() == 0 {
			amount = nil // the vester's 0: all that is vested
		}
		return SafeAct{Op: "claim", Allocation: decoded.Allocation.ID, Amount: amount}, nil
	case len(calls) == 1 && m.method.RawName == vesterabi.TransferBeneficiary:
		to, _ := values[0].(common.Address)
		args, _ := values[2].([]byte)
		decoded, err := vesting.Decode(args)
		if err != nil {
			return SafeAct{}, fmt.Errorf("the transfer's decodableArgs do not decode: %w", err)
		}
		return SafeAct{Op: "transfer", Allocation: decoded.Allocation.ID, To: to}, nil
	}
	return SafeAct{}, fmt.Errorf("call %d is a %s: %w", len(calls), m.method.RawName, ErrUnknownAct)
}

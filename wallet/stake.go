package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// StakePlan is what a stake (D11) takes on chain: an approve of the pool's
// token when the allowance is short, then the stake itself.
type StakePlan struct {
	// Token is the ERC-20 the pool takes (its stakingToken()).
	Token common.Address
	// Amount is the stake in base units, read from the stake's calldata.
	Amount *big.Int
	// Allowance is what the pool may move of the staker's tokens now.
	Allowance *big.Int
	// Approve is the approve call when Allowance is short of Amount, else
	// nil.
	Approve *Call
	Stake   Call
}

// Calls returns the plan's calls in the order they must be sent: the
// approve (when needed) before the stake, so they take nonces n and n+1.
func (p *StakePlan) Calls() []Call {
	if p.Approve == nil {
		return []Call{p.Stake}
	}
	return []Call{*p.Approve, p.Stake}
}

// PlanStake reads the pool's token and the staker's allowance for stake, a
// call built from stake parameters, and adds an approve of exactly the
// amount staked when the allowance is short: never an unlimited one. What
// is not a stake on a contract that answers stakingToken() is planned as
// it is, without an approve, for CheckStake to refuse with its reasons.
func PlanStake(ctx context.Context, chain ethereum.ContractCaller, stake Call) (*StakePlan, error) {
	m, values, ok := decodeKnown(stake.Data)
	if !ok || m.method.RawName != "stake" {
		return &StakePlan{Stake: stake}, nil
	}
	amount, _ := values[0].(*big.Int)
	token, err := StakingToken(ctx, chain, stake.To)
	if errors.Is(err, ErrNoContract) || reverted(err) {
		return &StakePlan{Amount: amount, Stake: stake}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("plan stake: staking token of pool %s: %w", stake.To.Hex(), err)
	}
	allowance, err := Allowance(ctx, chain, token, stake.From, stake.To)
	if err != nil {
		return nil, fmt.Errorf("plan stake: allowance: %w", err)
	}
	p := &StakePlan{Token: token, Amount: amount, Allowance: allowance, Stake: stake}
	if allowance.Cmp(amount) < 0 {
		data, err := tokenABI.Pack("approve", stake.To, amount)
		if err != nil {
			return nil, fmt.Errorf("plan stake: approve: %w", err)
		}
		p.Approve = &Call{ChainID: stake.ChainID, From: stake.From, To: token, Data: data, Value: new(big.Int)}
	}
	return p, nil
}

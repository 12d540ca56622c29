package session

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/wallet"
)

// ClaimCheck is the signing policy's check of a claim of allocationID by
// signer (amount in base units, nil for all that is claimable), for the
// dashboard and the command line alike: ClaimPolicy, then
// wallet.CheckClaim on the session's chain, held to pins (sign.Prepare
// reads them from the profile's file at each check). The policy is
// gathered at each check.
func (s *Session) ClaimCheck(allocationID string, signer common.Address, amount *big.Int) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		p, err := s.ClaimPolicy(ctx, pins, allocationID, signer, amount)
		if err != nil {
			return nil, err
		}
		return wallet.CheckClaim(ctx, s.Chain, p, calls)
	}
}

// StakeCheck is ClaimCheck for a stake of amount in pool: StakePolicy and
// wallet.CheckStake.
func (s *Session) StakeCheck(pool api.Pool, signer common.Address, amount *big.Int) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		p, err := s.StakePolicy(ctx, pins, pool, signer, amount)
		if err != nil {
			return nil, err
		}
		return wallet.CheckStake(ctx, s.Chain, p, calls)
	}
}

package session

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/internal/sanitize"
	"allot/wallet"
)

// ClaimCheck is the signing policy's check of a claim of allocationID by
// signer (amount in base units, nil for all that is claimable), for the
// dashboard and the command line alike: ClaimPolicy, then
// wallet.CheckClaim on the session's chain, held to pins (sign.Prepare
// reads them from the profile's file at each check). The policy is
// gathered at each check.
func (s *Session) ClaimCheck(allocationID string, signer common.Address, amount *big.Int) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return s.claimCheck(allocationID, signer, amount, false)
}

// SafeClaimCheck is ClaimCheck for a withdraw the Safe safeAddr makes by
// a proposal its owners sign: the review says the Safe pays the fee and
// whoever executes it the gas.
func (s *Session) SafeClaimCheck(allocationID string, safeAddr common.Address, amount *big.Int) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return s.claimCheck(allocationID, safeAddr, amount, true)
}

func (s *Session) claimCheck(allocationID string, signer common.Address, amount *big.Int, bySafe bool) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		p, err := s.ClaimPolicy(ctx, pins, allocationID, signer, amount)
		if err != nil {
			return nil, err
		}
		p.BySafe = bySafe
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

// ResetCheck is ClaimCheck for the reset of the allowance pool's staking
// contract holds on signer's token: the staking contract as the token's
// contract list names it (StakePolicy), and wallet.CheckReset.
func (s *Session) ResetCheck(pool api.Pool, signer, token common.Address) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		p, err := s.StakePolicy(ctx, pins, pool, signer, nil)
		if err != nil {
			return nil, err
		}
		if p.Pool == (common.Address{}) {
			return nil, &wallet.RefusedError{Subject: "reset of an allowance in pool " + sanitize.Truncate(pool.ID, 60),
				Reasons: []string{"the token's contract list names no staking contract for this pool"}}
		}
		rp := wallet.ResetPolicy{Signer: signer, ChainID: s.Profile.ChainID, Spender: p.Pool, Token: token, Pins: pins}
		return wallet.CheckReset(ctx, s.Chain, rp, calls)
	}
}

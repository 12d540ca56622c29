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
// dashboard and the command line alike: ClaimPolicy, the contracts seen
// signed for before (seen, asked at each check: the journal changes), and
// wallet.CheckClaim on the session's chain.
func (s *Session) ClaimCheck(allocationID string, signer common.Address, amount *big.Int, seen func() func(common.Address) bool) func(context.Context, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, calls []wallet.Call) (*wallet.Approval, error) {
		p, err := s.ClaimPolicy(ctx, allocationID, signer, amount)
		if err != nil {
			return nil, err
		}
		p.Seen = seen()
		return wallet.CheckClaim(ctx, s.Chain, p, calls)
	}
}

// StakeCheck is ClaimCheck for a stake of amount in pool: StakePolicy and
// wallet.CheckStake.
func (s *Session) StakeCheck(pool api.Pool, signer common.Address, amount *big.Int, seen func() func(common.Address) bool) func(context.Context, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, calls []wallet.Call) (*wallet.Approval, error) {
		p, err := s.StakePolicy(ctx, pool, signer, amount)
		if err != nil {
			return nil, err
		}
		p.Seen = seen()
		return wallet.CheckStake(ctx, s.Chain, p, calls)
	}
}

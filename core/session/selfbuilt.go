package session

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/wallet"
)

// ErrSelfBuiltOff: the profile signs only the claims the service builds
// (service_claims_only).
var ErrSelfBuiltOff = errors.New("the profile signs only the claims the service builds (service_claims_only = true)")

// SenderRefused reports whether err is the service's refusal to build a
// claim for its sender: a validation error it returned on the sender
// field. Anything else (a scope, an outage, another field) is not.
func SenderRefused(err error) bool {
	var ve *api.ValidationError
	if !errors.As(err, &ve) || !ve.Remote {
		return false
	}
	for _, f := range ve.Fields {
		if f.Path == "sender" {
			return true
		}
	}
	return false
}

// SelfBuiltClaim is the claim of allocation id for sender, built by allot
// for a service that refuses to build it for that sender (anyone may send
// a vester's withdraw: docs/custody.md): one withdraw of amount (nil: all
// that is vested) of the allocation's own proof, to the vester that holds
// its root, with the claim fee the chain states. The signing policy
// checks it as any claim.
func (s *Session) SelfBuiltClaim(ctx context.Context, id string, sender common.Address, amount *big.Int) ([]wallet.Call, error) {
	if s.Profile.ServiceClaimsOnly {
		return nil, ErrSelfBuiltOff
	}
	if err := s.NeedChain("building a claim"); err != nil {
		return nil, err
	}
	// One proof: the vester found holds its root, and the withdraw
	// carries it.
	proof, _, err := s.allocationProof(ctx, id)
	if err != nil {
		return nil, err
	}
	vester, err := s.vesterOf(ctx, proof)
	if err != nil {
		return nil, err
	}
	fee, err := wallet.ClaimFee(ctx, s.Chain, vester, id)
	if err != nil {
		return nil, fmt.Errorf("the claim fee of %s: %w", id, err)
	}
	if amount == nil {
		amount = new(big.Int) // the vester's 0: all that is vested
	}
	call, err := wallet.SelfBuiltWithdraw(vester, sender, s.Profile.ChainID, proof, amount, fee)
	if err != nil {
		return nil, err
	}
	return []wallet.Call{call}, nil
}

package session

import (
	"context"
	"fmt"
	"time"

	"allot/internal/sanitize"
	"allot/wallet"
)

// CheckAllocation reads allocation id as a claim would see it now: its
// merkle proof from the service, verified on the session's chain (its
// vester's record, what is withdrawn and claimable), the unlocks computed
// at the head block's time, or at the session's clock without a chain.
// The proof must be of the allocation asked; a chain whose head cannot be
// read is an error, not a guess at the time.
func (s *Session) CheckAllocation(ctx context.Context, id string) (*wallet.Verification, error) {
	res, err := s.API.MerkleProof(ctx, id)
	if err != nil {
		return nil, err
	}
	proof, err := wallet.ProofFromAPI(res)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	if s.Chain != nil {
		head, err := s.Chain.HeaderByNumber(ctx, nil)
		if err != nil {
			return nil, fmt.Errorf("the chain's head block: %w", err)
		}
		now = time.Unix(int64(head.Time), 0)
	}
	// The pinned vesters first; every listed one only when none of them
	// holds the root (a refresh repeats this, and lists nothing then).
	opts := s.verifyOptions(ctx, false)
	opts.Now = now
	v := wallet.VerifyProof(ctx, proof, opts)
	if v.RootCheck.State == wallet.Fail {
		opts = s.verifyOptions(ctx, true)
		opts.Now = now
		v = wallet.VerifyProof(ctx, proof, opts)
	}
	if v.Args != nil && v.Args.Allocation.ID != id {
		return nil, fmt.Errorf("the service's proof is of allocation %q, not of %s", sanitize.Truncate(v.Args.Allocation.ID, 60), id)
	}
	return v, nil
}

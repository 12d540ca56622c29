package session

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
)

// TransferCall is the transfer of beneficiary of allocation id to
// newAddress, sent by sender (D18 in docs/deployment.md): the service
// builds none, so allot builds it from the allocation's own proof, to the
// vester that holds its root. The signing policy checks it (TransferCheck).
func (s *Session) TransferCall(ctx context.Context, id string, sender, newAddress common.Address) ([]wallet.Call, error) {
	if err := s.NeedChain("building a transfer of beneficiary"); err != nil {
		return nil, err
	}
	proof, _, err := s.allocationProof(ctx, id)
	if err != nil {
		return nil, err
	}
	vester, err := s.vesterOf(ctx, proof)
	if err != nil {
		return nil, err
	}
	call, err := wallet.TransferCall(vester, sender, s.Profile.ChainID, proof, newAddress)
	if err != nil {
		return nil, err
	}
	return []wallet.Call{call}, nil
}

// TransferCheck is ClaimCheck for a transfer of beneficiary of allocation
// id to newAddress sent by signer: the allocation's proof from the
// merkle-proof operation, the listed vesters, and wallet.CheckTransfer.
func (s *Session) TransferCheck(id string, signer, newAddress common.Address) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		p := wallet.TransferPolicy{AllocationID: id, Signer: signer, ChainID: s.Profile.ChainID, NewAddress: newAddress, Pins: pins}
		res, err := s.API.MerkleProof(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("the allocation's proof, which the transfer is checked against: %w", err)
		}
		if p.Proof, err = wallet.ProofFromAPI(res); err != nil {
			return nil, fmt.Errorf("the allocation's proof, which the transfer is checked against: %w", err)
		}
		if p.Candidates, err = s.listedVesters(ctx); err != nil {
			return nil, err
		}
		return wallet.CheckTransfer(ctx, s.Chain, p, calls)
	}
}

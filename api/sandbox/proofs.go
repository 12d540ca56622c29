package sandbox

import (
	"github.com/ethereum/go-ethereum/common/hexutil"
)

type proofJSON struct {
	ID             string    `json:"id"`
	DecodableArgs  string    `json:"decodableArgs"`
	Hash           string    `json:"hash"`
	WalletAddress  string    `json:"walletAddress"`
	Proof          []string  `json:"proof"`
	Input          any       `json:"input"`
	MerkleTreeID   string    `json:"merkleTreeId"`
	DistributionID string    `json:"distributionId"`
	RootIndex      uint32    `json:"rootIndex"`
	CreatedAt      timestamp `json:"createdAt"`
	UpdatedAt      timestamp `json:"updatedAt"`
}

// merkleProof serves allocations/{id}/merkle-proof (D8). The proof's id is
// the allocation's: a proof is the allocation's leaf in its tree.
func (s *Server) merkleProof(c *call) (any, error) {
	a, err := s.pathAllocation(c)
	if err != nil {
		return nil, err
	}
	proof, err := a.Proof()
	if err != nil {
		return nil, err
	}
	nodes := make([]string, len(proof))
	for i, h := range proof {
		nodes[i] = h.Hex()
	}
	root := a.distribution.Roots[a.RootIndex]
	return proofJSON{
		ID:             a.ID,
		DecodableArgs:  hexutil.Encode(a.DecodableArgs),
		Hash:           a.Leaf.Hex(),
		WalletAddress:  a.Beneficiary().Hex(),
		Proof:          nodes,
		MerkleTreeID:   root.TreeID,
		DistributionID: a.DistributionID,
		RootIndex:      a.RootIndex,
		CreatedAt:      timestamp(root.CreatedAt),
		UpdatedAt:      timestamp(root.CreatedAt),
	}, nil
}

// pathAllocation returns the allocation the path's {id} names.
func (s *Server) pathAllocation(c *call) (*Allocation, error) {
	id := c.r.PathValue("id")
	if !isUUID(id) {
		return nil, errInvalid("id", "must be a UUID")
	}
	a, ok := s.world.Allocation(id)
	if !ok {
		return nil, errNotFound("no allocation %s", id)
	}
	return a, nil
}

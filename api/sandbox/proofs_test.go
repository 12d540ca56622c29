package sandbox

import (
	"bytes"
	"math/bits"
	"net/http"
	"sort"
	"testing"

	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// The verifier below is written from D8 with go-ethereum's keccak alone,
// not with allot/wallet/merkle, so that it checks the sandbox's trees
// rather than repeating them.

func sortedPair(a, b []byte) []byte {
	if bytes.Compare(a, b) > 0 {
		a, b = b, a
	}
	return crypto.Keccak256(a, b)
}

func foldProof(leaf []byte, proof [][]byte) []byte {
	node := leaf
	for _, sibling := range proof {
		node = sortedPair(node, sibling)
	}
	return node
}

// layoutRoot computes the root of leaves laid out as OpenZeppelin's
// SimpleMerkleTree does: leaves sorted, then stored from the end of one
// array in which node i has children 2i+1 and 2i+2.
func layoutRoot(leaves [][]byte) []byte {
	sorted := append([][]byte(nil), leaves...)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i], sorted[j]) < 0 })
	tree := make([][]byte, 2*len(sorted)-1)
	for i, leaf := range sorted {
		tree[len(tree)-1-i] = leaf
	}
	for i := len(tree) - 1 - len(sorted); i >= 0; i-- {
		tree[i] = sortedPair(tree[2*i+1], tree[2*i+2])
	}
	return tree[0]
}

type proofBody struct {
	ID             string   `json:"id"`
	DecodableArgs  string   `json:"decodableArgs"`
	Hash           string   `json:"hash"`
	WalletAddress  string   `json:"walletAddress"`
	Proof          []string `json:"proof"`
	Input          any      `json:"input"`
	MerkleTreeID   string   `json:"merkleTreeId"`
	DistributionID string   `json:"distributionId"`
	RootIndex      uint32   `json:"rootIndex"`
	CreatedAt      string   `json:"createdAt"`
	UpdatedAt      string   `json:"updatedAt"`
}

func TestMerkleProofsVerifyIndependently(t *testing.T) {
	e := newEnv(t, Options{})
	w := e.srv.World()
	ids := append([]string(nil), e.fx.AllocationIDs...)
	for i, a := range w.Allocations {
		if i%97 == 0 {
			ids = append(ids, a.ID)
		}
	}
	kinds := map[string]bool{}
	rootIndexes := map[uint32]bool{}
	for _, id := range ids {
		var p proofBody
		e.admin("GET", "allocations/"+id+"/merkle-proof", nil).result(t, &p)
		args, err := hexutil.Decode(p.DecodableArgs)
		if err != nil {
			t.Fatal(err)
		}
		leaf := crypto.Keccak256(args)
		if hexutil.Encode(leaf) != p.Hash {
			t.Fatalf("%s: hash %s is not keccak256(decodableArgs) once", id, p.Hash)
		}
		proof := make([][]byte, len(p.Proof))
		for i, h := range p.Proof {
			if proof[i], err = hexutil.Decode(h); err != nil || len(proof[i]) != 32 {
				t.Fatalf("%s: proof node %q", id, h)
			}
		}
		d := distributionByID(t, w, p.DistributionID)
		root := d.Roots[p.RootIndex]
		if got := foldProof(leaf, proof); !bytes.Equal(got, root.Hash[:]) {
			t.Fatalf("%s: proof leads to %x, root %d is %s", id, got, p.RootIndex, root.Hash)
		}
		// A leaf of a tree of n leaves lies at least floor(log2 n) deep.
		if depth := bits.Len(uint(len(root.Allocations))) - 1; len(proof) < depth {
			t.Errorf("%s: proof of %d nodes in a tree of %d leaves", id, len(proof), len(root.Allocations))
		}
		decoded, err := vesting.Decode(args)
		if err != nil {
			t.Fatal(err)
		}
		if decoded.Allocation.ID != id || decoded.Allocation.OriginalBeneficiary.Hex() != p.WalletAddress {
			t.Errorf("%s: leaf names allocation %s of %s, proof says %s", id, decoded.Allocation.ID, decoded.Allocation.OriginalBeneficiary.Hex(), p.WalletAddress)
		}
		if p.Input != nil || p.ID != id || p.MerkleTreeID != root.TreeID || p.CreatedAt == "" || p.UpdatedAt == "" {
			t.Errorf("%s: proof fields %+v", id, p)
		}
		kinds[decoded.Schedule.Kind] = true
		rootIndexes[p.RootIndex] = true
	}
	if !kinds[vesting.Calendar] || !kinds[vesting.Interval] || !rootIndexes[0] || !rootIndexes[1] {
		t.Errorf("checked kinds %v and root indexes %v: want both kinds and roots 0 and 1", kinds, rootIndexes)
	}
}

func TestMerkleRootsRecomputeIndependently(t *testing.T) {
	w := sharedWorld()
	big := 0
	for _, d := range w.Distributions {
		for _, root := range d.Roots {
			leaves := make([][]byte, len(root.Allocations))
			for i, a := range root.Allocations {
				leaves[i] = crypto.Keccak256(a.DecodableArgs)
			}
			if got := layoutRoot(leaves); !bytes.Equal(got, root.Hash[:]) {
				t.Errorf("%s root %d: recomputed %x, seeded %s", d.Name, root.Index, got, root.Hash)
			}
			if len(leaves) >= 1000 {
				big++
			}
		}
	}
	if big < 3 {
		t.Errorf("%d trees of at least 1,000 leaves, want several", big)
	}
}

func TestMerkleProofErrors(t *testing.T) {
	e := newEnv(t, Options{})
	e.admin("GET", "allocations/not-a-uuid/merkle-proof", nil).wantAdminError(t, http.StatusBadRequest, kindValidation, "id")
	e.admin("GET", "allocations/"+e.fx.PoolIDs[0]+"/merkle-proof", nil).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
}

func distributionByID(t *testing.T, w *World, id string) *Distribution {
	t.Helper()
	for _, d := range w.Distributions {
		if d.ID == id {
			return d
		}
	}
	t.Fatalf("no distribution %s", id)
	return nil
}

// Package merkle builds and checks the merkle trees of distributions
// (docs/deployment.md D8):
// leaves are keccak256(decodableArgs) hashed once, and a node is the keccak256
// of its two children in ascending byte order ("sorted pairs"), so a proof is
// a plain list of siblings with no left/right flags.
//
// Trees are laid out as OpenZeppelin's SimpleMerkleTree lays them out (leaves
// sorted, a complete binary tree in one array), so that roots and proofs can
// be compared one to one with that reference implementation.
package merkle

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// MaxProofLength bounds proofs taken from the network: a tree of 2^64 leaves
// needs 64 siblings.
const MaxProofLength = 64

// ErrNotInTree is returned by Proof for a leaf the tree does not hold.
var ErrNotInTree = errors.New("leaf not in tree")

// Leaf returns the leaf of a D8 allocation: keccak256(decodableArgs), once.
func Leaf(decodableArgs []byte) common.Hash {
	return crypto.Keccak256Hash(decodableArgs)
}

// HashPair returns the parent of a and b: keccak256 of the smaller, then the
// larger.
func HashPair(a, b common.Hash) common.Hash {
	if bytes.Compare(a[:], b[:]) > 0 {
		a, b = b, a
	}
	var buf [64]byte
	copy(buf[:32], a[:])
	copy(buf[32:], b[:])
	return crypto.Keccak256Hash(buf[:])
}

// ProcessProof folds proof onto leaf and returns the root it leads to.
func ProcessProof(leaf common.Hash, proof []common.Hash) common.Hash {
	node := leaf
	for _, sibling := range proof {
		node = HashPair(node, sibling)
	}
	return node
}

// Verify reports whether proof leads from leaf to root.
func Verify(leaf common.Hash, proof []common.Hash, root common.Hash) bool {
	return len(proof) <= MaxProofLength && ProcessProof(leaf, proof) == root
}

// Tree is a merkle tree over a fixed set of leaves.
type Tree struct {
	// nodes is the complete binary tree: node i has children 2i+1 and 2i+2,
	// the root is nodes[0] and the sorted leaves fill the end in reverse.
	nodes []common.Hash
	// index maps a leaf to its position in nodes.
	index map[common.Hash]int
}

// New builds the tree of leaves. The order of leaves does not matter.
func New(leaves []common.Hash) (*Tree, error) {
	if len(leaves) == 0 {
		return nil, errors.New("merkle tree: no leaves")
	}
	sorted := slices.Clone(leaves)
	slices.SortFunc(sorted, func(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) })
	n := len(sorted)
	t := &Tree{nodes: make([]common.Hash, 2*n-1), index: make(map[common.Hash]int, n)}
	for i, leaf := range sorted {
		pos := len(t.nodes) - 1 - i
		t.nodes[pos] = leaf
		if _, dup := t.index[leaf]; !dup {
			t.index[leaf] = pos
		}
	}
	for i := len(t.nodes) - 1 - n; i >= 0; i-- {
		t.nodes[i] = HashPair(t.nodes[2*i+1], t.nodes[2*i+2])
	}
	return t, nil
}

// Root returns the root of the tree.
func (t *Tree) Root() common.Hash { return t.nodes[0] }

// Len returns the number of leaves.
func (t *Tree) Len() int { return (len(t.nodes) + 1) / 2 }

// Proof returns the siblings from leaf up to the root.
func (t *Tree) Proof(leaf common.Hash) ([]common.Hash, error) {
	pos, ok := t.index[leaf]
	if !ok {
		return nil, fmt.Errorf("proof of %s: %w", leaf.Hex(), ErrNotInTree)
	}
	var proof []common.Hash
	for pos > 0 {
		sibling := pos + 1
		if pos%2 == 0 {
			sibling = pos - 1
		}
		proof = append(proof, t.nodes[sibling])
		pos = (pos - 1) / 2
	}
	return proof, nil
}

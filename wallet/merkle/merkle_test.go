package merkle

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func leaves(n int) []common.Hash {
	out := make([]common.Hash, n)
	for i := range out {
		out[i] = crypto.Keccak256Hash([]byte(fmt.Sprintf("leaf %d", i)))
	}
	return out
}

func TestEveryProofVerifies(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 1000, 1025} {
		ls := leaves(n)
		tree, err := New(ls)
		if err != nil {
			t.Fatal(err)
		}
		if tree.Len() != n {
			t.Errorf("n=%d: Len = %d", n, tree.Len())
		}
		for _, leaf := range ls {
			proof, err := tree.Proof(leaf)
			if err != nil {
				t.Fatal(err)
			}
			if !Verify(leaf, proof, tree.Root()) {
				t.Fatalf("n=%d: proof of %s does not verify", n, leaf)
			}
		}
	}
}

func TestSingleLeafIsRoot(t *testing.T) {
	ls := leaves(1)
	tree, _ := New(ls)
	proof, _ := tree.Proof(ls[0])
	if tree.Root() != ls[0] || len(proof) != 0 {
		t.Errorf("root %s, proof %v", tree.Root(), proof)
	}
}

func TestTamperingFails(t *testing.T) {
	ls := leaves(16)
	tree, _ := New(ls)
	proof, _ := tree.Proof(ls[3])
	root := tree.Root()

	tamperedLeaf := ls[3]
	tamperedLeaf[0] ^= 1
	if Verify(tamperedLeaf, proof, root) {
		t.Error("tampered leaf verified")
	}
	tamperedProof := append([]common.Hash(nil), proof...)
	tamperedProof[1][31] ^= 1
	if Verify(ls[3], tamperedProof, root) {
		t.Error("tampered sibling verified")
	}
	if Verify(ls[3], proof[:len(proof)-1], root) {
		t.Error("shortened proof verified")
	}
	otherTree, _ := New(leaves(17))
	if Verify(ls[3], proof, otherTree.Root()) {
		t.Error("proof verified against another root")
	}
}

func TestOrderOfLeavesDoesNotMatter(t *testing.T) {
	ls := leaves(33)
	reversed := make([]common.Hash, len(ls))
	for i, l := range ls {
		reversed[len(ls)-1-i] = l
	}
	a, _ := New(ls)
	b, _ := New(reversed)
	if a.Root() != b.Root() {
		t.Error("root depends on leaf order")
	}
}

func TestHashPairIsSorted(t *testing.T) {
	a, b := common.HexToHash("0x01"), common.HexToHash("0x02")
	want := crypto.Keccak256Hash(a[:], b[:])
	if HashPair(a, b) != want || HashPair(b, a) != want {
		t.Error("HashPair is not order-independent keccak(min||max)")
	}
}

func TestProofOfUnknownLeaf(t *testing.T) {
	tree, _ := New(leaves(4))
	if _, err := tree.Proof(common.Hash{}); !errors.Is(err, ErrNotInTree) {
		t.Errorf("err = %v", err)
	}
	if _, err := New(nil); err == nil {
		t.Error("empty tree built")
	}
}

func TestVerifyBoundsProofLength(t *testing.T) {
	leaf := common.HexToHash("0x01")
	long := make([]common.Hash, MaxProofLength+1)
	if Verify(leaf, long, ProcessProof(leaf, long)) {
		t.Error("over-long proof accepted")
	}
}

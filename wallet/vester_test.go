package wallet

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

func TestMerkleRootPastTheEnd(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if root, err := MerkleRoot(ctx, f.node, f.vester, 0); err != nil || root != f.tree.Root() {
		t.Fatalf("root 0 = %s, %v; want %s", root.Hex(), err, f.tree.Root().Hex())
	}
	if _, err := MerkleRoot(ctx, f.node, f.vester, 7); !errors.Is(err, ErrNoRoot) {
		t.Errorf("root 7: %v, want ErrNoRoot", err)
	}
}

func TestFindVester(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	root := f.tree.Root()
	// The pool and the token answer merkleRoots with a revert or nothing;
	// an address without code answers nothing.
	candidates := []common.Address{f.pool, f.token, {0x42}, f.vester}
	check, err := FindVester(ctx, f.node, candidates, 0, root)
	if err != nil || check.Vester != f.vester {
		t.Fatalf("FindVester = %s, %v; want the vester %s", check.Vester.Hex(), err, f.vester.Hex())
	}
	for name, tc := range map[string]struct {
		candidates []common.Address
		index      uint32
		root       common.Hash
	}{
		"no candidate":       {nil, 0, root},
		"other root":         {candidates, 0, common.Hash{9}},
		"index past the end": {candidates, 3, root},
		"zero root":          {candidates, 0, common.Hash{}},
	} {
		t.Run(name, func(t *testing.T) {
			check, err := FindVester(ctx, f.node, tc.candidates, tc.index, tc.root)
			if !errors.Is(err, ErrNoVester) || errors.Is(err, ErrUnchecked) || check.Vester != (common.Address{}) {
				t.Errorf("FindVester = %s, %v; want ErrNoVester, a failed check", check.Vester.Hex(), err)
			}
		})
	}
}

// failingCaller is a node that cannot be reached.
type failingCaller struct{}

func (failingCaller) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	return nil, errors.New("dial tcp 127.0.0.1:1: connection refused")
}

func TestFindVesterUnreadable(t *testing.T) {
	_, err := FindVester(context.Background(), failingCaller{}, []common.Address{{1}}, 0, common.Hash{1})
	if !errors.Is(err, ErrUnchecked) || errors.Is(err, ErrNoVester) {
		t.Errorf("err = %v; want ErrUnchecked: a check that could not run is not a failure", err)
	}
	if _, err := ClaimFee(context.Background(), failingCaller{}, common.Address{1}, "a"); err == nil {
		t.Error("ClaimFee assumed a fee from an unreachable node")
	}
}

func TestClaimFeeFallsBackToTheFlatFee(t *testing.T) {
	f := newFixture(t)
	fee, err := ClaimFee(context.Background(), f.node, f.vester, "7f3c2a10-0000-4000-8000-00000000a11c")
	if err != nil || fee.Cmp(claimFee) != 0 {
		t.Errorf("ClaimFee = %v, %v; want the flat %s", fee, err, claimFee)
	}
}

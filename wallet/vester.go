package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// ErrNoRoot: the vester holds no root at the index asked. The production
// vester keeps its roots in an array, so an index past its end reverts; an
// older vester answers the zero hash. Both mean the same: nothing can be
// proved against that index.
var ErrNoRoot = errors.New("the vester has no such root")

// ErrNoVester: no candidate contract holds the root a proof leads to. It is
// a failed check, not one that could not run.
var ErrNoVester = errors.New("no vester of this token holds this root")

// MerkleRoot reads the vester's root number index (D8, D16). An index the
// vester does not have is ErrNoRoot, whether the vester reverts (the
// production array) or answers the zero hash.
func MerkleRoot(ctx context.Context, caller ethereum.ContractCaller, vester common.Address, index uint32) (common.Hash, error) {
	root, err := view[[32]byte](ctx, caller, vesterABI, vester, "merkleRoots", new(big.Int).SetUint64(uint64(index)))
	if err != nil {
		if _, reverted := revertReason(err); reverted {
			return common.Hash{}, fmt.Errorf("merkleRoots(%d) at %s: %w", index, vester.Hex(), ErrNoRoot)
		}
		return common.Hash{}, err
	}
	if root == ([32]byte{}) {
		return common.Hash{}, fmt.Errorf("merkleRoots(%d) at %s: %w", index, vester.Hex(), ErrNoRoot)
	}
	return root, nil
}

// ClaimFee reads the exact value a withdraw of allocationID must carry
// (D16): getClaimFee(allocationID) where the vester has it, else its flat
// claimFee(). A read that fails for another reason than a revert (the node
// is unreachable) is an error: the fee is then unknown, never assumed.
func ClaimFee(ctx context.Context, caller ethereum.ContractCaller, vester common.Address, allocationID string) (*big.Int, error) {
	// getClaimFee is declared state-changing on the production vester:
	// eth_call runs it all the same, and keeps nothing.
	fee, err := view[*big.Int](ctx, caller, vesterABI, vester, "getClaimFee", allocationID)
	if err == nil {
		return fee, nil
	}
	if _, reverted := revertReason(err); !reverted && !errors.Is(err, ErrNoContract) {
		return nil, err
	}
	// No getClaimFee: a vester without the function reverts, or answers
	// nothing from a fallback. Its flat fee is the fee.
	return view[*big.Int](ctx, caller, vesterABI, vester, "claimFee")
}

// VesterCheck is how a vester was found for a proof: which contracts were
// asked and what each answered.
type VesterCheck struct {
	// Vester is the contract that holds the root; zero when none does.
	Vester common.Address
	// Asked counts the candidates that answered; Unreadable says which
	// could not be read and why (a node error, not an answer).
	Asked      int
	Unreadable []string
}

// FindVester establishes a proof's vester from the chain alone: the first
// of candidates whose merkleRoots(rootIndex) equals root. A contract that
// answers a root has code, so no separate code check is needed. When no
// candidate holds the root and every candidate answered, the error is
// ErrNoVester: a failed check. When some could not be read, the error says
// which, and wraps ErrUnchecked: the check did not run to the end.
func FindVester(ctx context.Context, caller ethereum.ContractCaller, candidates []common.Address, rootIndex uint32, root common.Hash) (VesterCheck, error) {
	var check VesterCheck
	if root == (common.Hash{}) {
		return check, fmt.Errorf("find vester: %w: the proof leads to the zero root", ErrNoVester)
	}
	for _, c := range candidates {
		got, err := MerkleRoot(ctx, caller, c, rootIndex)
		switch {
		case err == nil:
			check.Asked++
			if got == root {
				check.Vester = c
				return check, nil
			}
		case errors.Is(err, ErrNoRoot), errors.Is(err, ErrNoContract):
			check.Asked++
		default:
			if ctx.Err() != nil {
				return check, fmt.Errorf("find vester: %w", ctx.Err())
			}
			check.Unreadable = append(check.Unreadable, err.Error())
		}
	}
	if len(check.Unreadable) > 0 {
		return check, fmt.Errorf("find vester: %w: %d of %d contracts could not be read: %s",
			ErrUnchecked, len(check.Unreadable), len(candidates), check.Unreadable[0])
	}
	if len(candidates) == 0 {
		return check, fmt.Errorf("find vester: %w: the token has no vesting or airdrop contract", ErrNoVester)
	}
	return check, fmt.Errorf("find vester: %w: %d contracts asked for root %d", ErrNoVester, check.Asked, rootIndex)
}

// Holders are the candidates that hold root rootIndex = root, in the
// order given: a proof's root may be held by more than one contract (a
// copy that forwards to the genuine vester holds it too), and each is
// named, never only the first. A contract that cannot be read is left
// out: FindVester says whether one could not.
func Holders(ctx context.Context, caller ethereum.ContractCaller, candidates []common.Address, rootIndex uint32, root common.Hash) []common.Address {
	var out []common.Address
	for _, c := range candidates {
		if got, err := MerkleRoot(ctx, caller, c, rootIndex); err == nil && got == root && root != (common.Hash{}) {
			out = append(out, c)
		}
	}
	return out
}

// VesterTrust is whether the profile pins a contract that holds a proof's
// root: beside the proof's verdict, which it never changes, what signing
// a claim needs.
type VesterTrust struct {
	Vester common.Address
	Pinned bool
	// Note says where it is pinned, or what pins it, or why the pins
	// could not be read.
	Note string
}

func (t VesterTrust) String() string { return "vester " + t.Vester.Hex() + ": " + t.Note }

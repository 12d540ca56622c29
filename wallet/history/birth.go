package history

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// birth is the first block at which vester has code, found by halving
// [from, head] with eth_getCode: about 21 questions for 2,000,000 blocks,
// where the scan from block 0 asked for logs of every range in between.
// ok is false when the node cannot tell (a node that keeps no old state
// answers an error): the scan then starts where it was asked to.
func birth(ctx context.Context, node Node, vester common.Address, from, head uint64) (n uint64, ok bool, err error) {
	has := func(n uint64) (bool, error) {
		code, err := node.CodeAt(ctx, vester, blockNumber(n))
		return len(code) > 0, err
	}
	if deployed, err := has(head); err != nil || !deployed {
		return 0, false, ctx.Err()
	}
	lo, hi := from, head // code at hi; lo..hi holds the birth
	for lo < hi {
		mid := lo + (hi-lo)/2
		deployed, err := has(mid)
		if err != nil {
			if ctx.Err() != nil {
				return 0, false, ctx.Err()
			}
			return 0, false, nil
		}
		if deployed {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true, nil
}

// fromBirth moves the scan's start to the first block any of vesters has
// code at, when it was asked to start at block 0: nothing of theirs can
// be before.
func (s *scan) fromBirth(ctx context.Context, vesters []common.Address) error {
	if s.from != 0 || len(vesters) == 0 {
		return nil
	}
	first := s.to
	for _, v := range vesters {
		n, ok, err := birth(ctx, s.r.node, v, s.from, s.to)
		if err != nil {
			return fmt.Errorf("the vester's first block: %w", err)
		}
		if !ok {
			return nil // cannot tell: from block 0, as asked
		}
		first = min(first, n)
	}
	s.from = first
	s.progress.Blocks = s.to - s.from + 1
	return nil
}

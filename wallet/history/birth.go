package history

import (
	"context"
	"fmt"
	"sync"

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

// births remembers the first blocks found in this process, by vester.
// A remembered block is checked before it is used (code there, none the
// block before: two questions instead of 21), so a chain started anew
// under the same id (a development chain) is searched again.
var births sync.Map // common.Address -> uint64

// rememberedBirth is vester's first block as found before, if it holds.
func rememberedBirth(ctx context.Context, node Node, vester common.Address) (uint64, bool) {
	v, ok := births.Load(vester)
	if !ok {
		return 0, false
	}
	n := v.(uint64)
	code, err := node.CodeAt(ctx, vester, blockNumber(n))
	if err != nil || len(code) == 0 {
		return 0, false
	}
	if n == 0 {
		return 0, true
	}
	code, err = node.CodeAt(ctx, vester, blockNumber(n-1))
	return n, err == nil && len(code) == 0
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
		n, ok := rememberedBirth(ctx, s.r.node, v)
		if !ok || n > s.to {
			var err error
			if n, ok, err = birth(ctx, s.r.node, v, s.from, s.to); err != nil {
				return fmt.Errorf("the vester's first block: %w", err)
			}
			if !ok {
				return nil // cannot tell: from block 0, as asked
			}
			births.Store(v, n)
		}
		first = min(first, n)
	}
	s.from = first
	s.progress.Blocks = s.to - s.from + 1
	return nil
}

// FirstBlock is the first block at which addr has code (its deployment),
// found as the scan finds a vester's; ok is false when the node cannot
// tell (it keeps no old state).
func FirstBlock(ctx context.Context, node Node, addr common.Address) (n uint64, ok bool, err error) {
	if n, ok := rememberedBirth(ctx, node, addr); ok {
		return n, true, nil
	}
	head, err := node.BlockNumber(ctx)
	if err != nil {
		return 0, false, ctx.Err()
	}
	if n, ok, err = birth(ctx, node, addr, 0, head); ok {
		births.Store(addr, n)
	}
	return n, ok, err
}

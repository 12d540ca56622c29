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

// Births remembers contracts' first blocks by chain, between scans and,
// kept in a file (BirthFile), between runs. What it gives back is only a
// hint: it is checked on the chain before it is used (code there, none
// the block before: two questions instead of 21), so a chain started
// anew under the same id, or a hand-edited file, costs a search, never a
// wrong history.
type Births interface {
	Birth(chain uint64, addr common.Address) (uint64, bool)
	Remember(chain uint64, addr common.Address, n uint64)
}

// processBirths remembers first blocks for this process only: the
// births of a Reader given none.
var processBirths = &memoryBirths{}

type memoryBirths struct{ m sync.Map } // birthKey -> uint64

type birthKey struct {
	chain uint64
	addr  common.Address
}

func (b *memoryBirths) Birth(chain uint64, addr common.Address) (uint64, bool) {
	v, ok := b.m.Load(birthKey{chain, addr})
	if !ok {
		return 0, false
	}
	return v.(uint64), true
}

func (b *memoryBirths) Remember(chain uint64, addr common.Address, n uint64) {
	b.m.Store(birthKey{chain, addr}, n)
}

// firstBlocks finds and remembers first blocks on one node.
type firstBlocks struct {
	node   Node
	births Births
	chain  uint64
	known  bool // chain was asked
}

func newFirstBlocks(node Node, births Births) *firstBlocks {
	if births == nil {
		births = processBirths
	}
	return &firstBlocks{node: node, births: births}
}

// chainID is the node's chain, asked once; ok is false when the node did
// not say, and then nothing is remembered or recalled.
func (f *firstBlocks) chainID(ctx context.Context) (uint64, bool) {
	if !f.known {
		id, err := f.node.ChainID(ctx)
		if err != nil || id == nil || !id.IsUint64() {
			return 0, false
		}
		f.chain, f.known = id.Uint64(), true
	}
	return f.chain, true
}

// remembered is addr's first block as found before, if the chain agrees.
func (f *firstBlocks) remembered(ctx context.Context, addr common.Address, head uint64) (uint64, bool) {
	chain, ok := f.chainID(ctx)
	if !ok {
		return 0, false
	}
	n, ok := f.births.Birth(chain, addr)
	if !ok || n > head {
		return 0, false
	}
	code, err := f.node.CodeAt(ctx, addr, blockNumber(n))
	if err != nil || len(code) == 0 {
		return 0, false
	}
	if n == 0 {
		return 0, true
	}
	code, err = f.node.CodeAt(ctx, addr, blockNumber(n-1))
	return n, err == nil && len(code) == 0
}

// find is addr's first block in [from, head]: remembered, else searched
// and remembered. ok is false when the node cannot tell.
func (f *firstBlocks) find(ctx context.Context, addr common.Address, from, head uint64) (uint64, bool, error) {
	if n, ok := f.remembered(ctx, addr, head); ok && n >= from {
		return n, true, nil
	}
	n, ok, err := birth(ctx, f.node, addr, from, head)
	if !ok || err != nil {
		return 0, false, err
	}
	// Only a search of the whole chain finds the first block: one from a
	// later start finds the first block at or after it.
	if chain, known := f.chainID(ctx); known && from == 0 {
		f.births.Remember(chain, addr, n)
	}
	return n, true, nil
}

// fromBirth moves the scan's start to the first block any of vesters has
// code at, when it was asked to start at block 0: nothing of theirs can
// be before.
func (s *scan) fromBirth(ctx context.Context, vesters []common.Address) error {
	if s.from != 0 || len(vesters) == 0 {
		return nil
	}
	f := newFirstBlocks(s.r.node, s.r.opts.Births)
	first := s.to
	for _, v := range vesters {
		n, ok, err := f.find(ctx, v, s.from, s.to)
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

// FirstBlock is the first block at which addr has code (its deployment),
// found as the scan finds a vester's and remembered in births (this
// process's memory when nil); ok is false when the node cannot tell (it
// keeps no old state).
func FirstBlock(ctx context.Context, node Node, addr common.Address, births Births) (n uint64, ok bool, err error) {
	head, err := node.BlockNumber(ctx)
	if err != nil {
		return 0, false, ctx.Err()
	}
	return newFirstBlocks(node, births).find(ctx, addr, 0, head)
}

package sandbox

import (
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/merkle"
)

// The seed is a pure function of its start day: every World seeded for the
// same day encodes the same leaves and builds the same trees, and every
// World derives the same stakers. Hashing them is most of Finish's work,
// so a process that seeds again (a reset, a profile switch back, a test
// suite opening a sandbox per test) reuses what an earlier World
// computed. What is shared is never written after Finish: the leaves'
// bytes, the trees and the stakers' table are read-only.

// finishedLeaves is what seedLeaves computed for one start day, in the
// order of World.Allocations and of the distributions' roots. ids guards
// the reuse: a World whose allocations are not these computes its own.
type finishedLeaves struct {
	ids    []string
	args   [][]byte
	leaves []common.Hash
	trees  []*merkle.Tree
}

// leavesKept bounds the start days remembered: a process seeds one day,
// or a handful when tests pin their clocks to a few dates.
const leavesKept = 4

var leafMemo struct {
	sync.Mutex
	byStart map[time.Time]*finishedLeaves
	order   []time.Time // oldest first
}

// rememberedLeaves returns what was computed for start, if anything.
func rememberedLeaves(start time.Time) *finishedLeaves {
	leafMemo.Lock()
	defer leafMemo.Unlock()
	return leafMemo.byStart[start]
}

// rememberLeaves keeps f for start, forgetting the oldest day past
// leavesKept.
func rememberLeaves(start time.Time, f *finishedLeaves) {
	leafMemo.Lock()
	defer leafMemo.Unlock()
	if leafMemo.byStart == nil {
		leafMemo.byStart = map[time.Time]*finishedLeaves{}
	}
	if _, ok := leafMemo.byStart[start]; ok {
		return
	}
	if len(leafMemo.order) == leavesKept {
		delete(leafMemo.byStart, leafMemo.order[0])
		leafMemo.order = leafMemo.order[1:]
	}
	leafMemo.byStart[start] = f
	leafMemo.order = append(leafMemo.order, start)
}

// reuseLeaves sets w's leaves and trees from f when f was computed for
// the same allocations, and tells whether it did.
func (w *World) reuseLeaves(f *finishedLeaves) bool {
	if f == nil || len(f.ids) != len(w.Allocations) {
		return false
	}
	for i, a := range w.Allocations {
		if a.ID != f.ids[i] {
			return false
		}
	}
	roots := 0
	for _, d := range w.Distributions {
		roots += len(d.Roots)
	}
	if roots != len(f.trees) {
		return false
	}
	for i, a := range w.Allocations {
		a.DecodableArgs, a.Leaf = f.args[i], f.leaves[i]
	}
	n := 0
	for _, d := range w.Distributions {
		for _, root := range d.Roots {
			root.tree, root.Hash = f.trees[n], f.trees[n].Root()
			n++
		}
	}
	return true
}

// keptLeaves is what w's seedLeaves computed, to be remembered.
func (w *World) keptLeaves() *finishedLeaves {
	f := &finishedLeaves{
		ids:    make([]string, len(w.Allocations)),
		args:   make([][]byte, len(w.Allocations)),
		leaves: make([]common.Hash, len(w.Allocations)),
	}
	for i, a := range w.Allocations {
		f.ids[i], f.args[i], f.leaves[i] = a.ID, a.DecodableArgs, a.Leaf
	}
	for _, d := range w.Distributions {
		for _, root := range d.Roots {
			f.trees = append(f.trees, root.tree)
		}
	}
	return f
}

package sandbox

import (
	"context"
	"testing"

	"allot/wallet/merkle"
)

// TestSeedReusesLeavesOfItsDay: a World seeded for a day another World
// of the process already finished takes its leaves and trees, and they
// are exactly what it would have computed; a World of another day
// computes its own.
func TestSeedReusesLeavesOfItsDay(t *testing.T) {
	finished := func(days int) *World {
		t.Helper()
		w, err := SeedFirst(testStart.AddDate(0, 0, days), 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Finish(context.Background()); err != nil {
			t.Fatal(err)
		}
		return w
	}
	first, again, later := finished(0), finished(0), finished(3)

	if first.Distributions[0].Roots[0].tree != again.Distributions[0].Roots[0].tree {
		t.Error("a World of the same day built its trees again")
	}
	for i, a := range again.Allocations {
		data, err := encodeArgs(a.Args)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != string(a.DecodableArgs) || merkle.Leaf(data) != a.Leaf {
			t.Fatalf("allocation %d (%s): the reused leaf is not its own", i, a.ID)
		}
	}
	if first.Distributions[0].Roots[0].Hash == later.Distributions[0].Roots[0].Hash {
		t.Error("a World three days later has the first day's root")
	}
	if len(later.stakers) != DemoWallets+syntheticStakers || later.stakers[DemoWallets] != first.stakers[DemoWallets] {
		t.Error("the synthetic stakers differ between Worlds")
	}
}

package holder

import (
	"slices"
	"testing"

	"allot/views"
	"allot/viewstest"
)

// TestDemoAllocationsOfferEveryState: the demo list keeps the first plain
// allocations the examples start from and adds one of each other state the
// seed left, within views.MaxRecent, each with its state in words.
func TestDemoAllocationsOfferEveryState(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	fx := ctx.Session.Fixtures
	got := demoAllocations(ctx)
	if len(got) > views.MaxRecent || got[0] != fx.AllocationIDs[0] {
		t.Fatalf("demo %v: want at most %d, the first id first", got, views.MaxRecent)
	}
	if len(fx.LifeAllocationIDs) == 0 {
		t.Fatal("the sandbox seeds no allocation in another state than active")
	}
	for _, id := range fx.LifeAllocationIDs {
		state := fx.AllocationStates[id]
		if !slices.ContainsFunc(got, func(g string) bool { return fx.AllocationStates[g] == state }) {
			t.Errorf("demo %v offers no %s allocation", got, state)
		}
	}
	words := map[string]bool{}
	for _, id := range got {
		words[demoState(ctx, id)] = true
	}
	for _, want := range []string{"active", "claimed in part", "cancelled", "revoked", "transferred", "underfunded", "through handler"} {
		if !words[want] {
			t.Errorf("no demo allocation is said to be %q: %v", want, words)
		}
	}
	ctx.Session.Fixtures = nil
	if demoAllocations(ctx) != nil || demoState(ctx, got[0]) != "" {
		t.Error("a real deployment has demo allocations")
	}
}

package holder

import (
	"slices"
	"testing"

	"allot/api/sandbox"
	"allot/views"
)

// TestDemoAllocationsOfferEveryState: the demo list keeps the first
// allocations the examples start from and adds one of each other state the
// seed left, within views.MaxRecent; the seed's own order put the states
// last, past what the list showed.
func TestDemoAllocationsOfferEveryState(t *testing.T) {
	fx := &sandbox.Fixtures{AllocationStates: map[string]string{}}
	for i := range 13 {
		id := string(rune('a' + i))
		fx.AllocationIDs = append(fx.AllocationIDs, id)
		fx.AllocationStates[id] = sandbox.StateActive
	}
	states := []string{sandbox.StateClaimedInPart, sandbox.StateCancelled, sandbox.StateRevoked,
		sandbox.StateTransferred, sandbox.StateUnderfunded, sandbox.StateThroughHandler}
	// The seed lists the allocations it did something to apart.
	fx.LifeAllocationIDs, fx.AllocationIDs = fx.AllocationIDs[6:], fx.AllocationIDs[:6]
	for i, s := range states {
		fx.AllocationStates[fx.LifeAllocationIDs[i]] = s
	}
	fx.AllocationStates["m"] = sandbox.StateRevoked // a second revoked one is not offered
	got := demoAllocations(fx)
	if len(got) > views.MaxRecent || got[0] != "a" {
		t.Fatalf("demo %v: want at most %d, the first id first", got, views.MaxRecent)
	}
	for _, s := range states {
		if !slices.ContainsFunc(got, func(id string) bool { return fx.AllocationStates[id] == s }) {
			t.Errorf("demo %v offers no %s allocation", got, s)
		}
	}
	if slices.Contains(got, "m") {
		t.Errorf("demo %v offers a second revoked allocation", got)
	}
	if w := demoState(fx, "g"); w != "claimed in part" {
		t.Errorf("state of g = %q, want it in words", w)
	}
	if demoAllocations(nil) != nil || demoState(nil, "a") != "" {
		t.Error("a real deployment has demo allocations")
	}
}

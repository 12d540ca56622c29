package holder

import (
	"slices"
	"testing"

	"allot/core/journal"
	"allot/viewstest"
)

// TestRecentAllocations: what :alloc completes is the allocations looked
// up on this deployment, newest first, then the embedded sandbox's demo
// ones (demoAllocations: one of each seeded state among them), each once.
func TestRecentAllocations(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx.Journal = j
	fx := ctx.Session.Fixtures
	mine := "6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
	d := ctx.Session.Deployment()
	for _, id := range []string{fx.AllocationIDs[1], mine} {
		if err := j.Append(journal.Entry{Kind: journal.KindLookup, Profile: d.Profile, BaseURL: d.BaseURL, ChainID: d.ChainID, Ref: id}); err != nil {
			t.Fatal(err)
		}
	}
	got := RecentAllocations(ctx)
	want := []string{mine, fx.AllocationIDs[1]}
	for _, id := range demoAllocations(ctx) {
		if id != fx.AllocationIDs[1] {
			want = append(want, id)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("recent allocations %v\nwant %v", got, want)
	}
}

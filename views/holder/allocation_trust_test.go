package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/viewstest"
)

// TestAllocationOfAnUnpinnedVesterPasses: the profile pins a vester that
// does not hold the proof's root; the one that does is in the token's
// contract list. The root check is PASS, and a line of its own says that
// vester is not pinned and what pins it: a proof is not FAIL for the
// user's trust.
func TestAllocationOfAnUnpinnedVesterPasses(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	id := ctx.Session.Fixtures.AllocationIDs[0]
	pins := &ctx.Session.Profile.Pins
	pins.Vesters = pins.Staking // a pinned "vester" that holds no root
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 160, 60)
	d.Run(a.Update(LookupMsg{ID: id}))
	d.Until("looked up", func() bool { return a.result != nil && !a.busy })
	view := ansi.Strip(a.View())
	if a.result.RootCheck.State.String() != "PASS" || strings.Contains(view, "FAIL") {
		t.Errorf("the root check of a valid proof on an unpinned vester: %v\n%s", a.result.RootCheck, view)
	}
	vester := a.result.Vester.Hex()
	want := "vester " + vester + ": not pinned: claims refused until `allot pin vester " + vester + "`"
	var pinned []string
	for _, f := range verificationFields(a.result, ctx.Now(), "") {
		if f.Label == "Pinned" {
			pinned = append(pinned, f.Value)
		}
	}
	if len(pinned) != 1 || pinned[0] != want || !strings.Contains(view, "not pinned:") {
		t.Errorf("the Pinned lines are %q, want %q on the screen:\n%s", pinned, want, view)
	}
}

package holder

import (
	"strings"
	"testing"

	"allot/api/sandbox"
	"allot/views/viewstest"
)

// TestAllocationFieldsNameTheirToken: the allocation's amounts (total,
// unlocked, withdrawn, what its vester holds, claimable) are named with
// the allocation's own token, which is not the dashboard's for a Harbor
// allocation on the Meridian dashboard.
func TestAllocationFieldsNameTheirToken(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	for state, want := range map[string]string{sandbox.StateActive: "MRD", sandbox.StateClaimedInPart: "HBR"} {
		a := NewAllocation(ctx).(*allocation)
		d := viewstest.NewDriver(t, a, 200, 40)
		d.Run(a.lookup(stateID(t, ctx, state)))
		d.Until("the lookup", func() bool { return a.result != nil })
		named := map[string]bool{}
		for _, f := range verificationFields(a.result, ctx.Now(), unit(a.count.unit)) { // as the lookup set them
			switch f.Label {
			case "Total", "Unlocked now", "Withdrawn", "Vester holds", "Claimable now":
				named[f.Label] = strings.HasSuffix(f.Value, " "+want)
				if !named[f.Label] {
					t.Errorf("%s allocation: %s %q, want its amount in %s", state, f.Label, f.Value, want)
				}
			}
		}
		if len(named) != 5 {
			t.Errorf("%s allocation: amounts found %v, want all five", state, named)
		}
	}
}

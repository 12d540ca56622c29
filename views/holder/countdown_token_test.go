package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/viewstest"
)

// TestCountdownNamesTheToken: the countdown's amount is named after the
// allocation's own token (the one whose contracts list its vester), as
// the header names a token, whichever token the dashboard shows: on the
// first token (MRD), an allocation of the second reads HBR. Before, it
// read the dashboard's token, MRD, for both. The allocation's amounts
// (total, unlocked, withdrawn, what its vester holds, claimable) are
// named alike.
func TestCountdownNamesTheToken(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	for state, want := range map[string]string{sandbox.StateActive: "MRD", sandbox.StateClaimedInPart: "HBR"} {
		a := NewAllocation(ctx).(*allocation)
		d := viewstest.NewDriver(t, a, 200, 40)
		d.Run(a.lookup(stateID(t, ctx, state)))
		d.Until("the lookup", func() bool { return a.result != nil })
		line, _, _ := strings.Cut(ansi.Strip(a.View()), "\n")
		if !strings.Contains(line, "next unlock in ") || !strings.HasSuffix(strings.TrimSpace(line), " "+want) {
			t.Errorf("%s allocation: %q, want its amount in %s", state, line, want)
		}
		named := 0
		for _, f := range verificationFields(a.result, ctx.Now(), unit(a.count.unit)) { // as the lookup set them
			switch f.Label {
			case "Total", "Unlocked now", "Withdrawn", "Vester holds", "Claimable now":
				named++
				if !strings.HasSuffix(f.Value, " "+want) {
					t.Errorf("%s allocation: %s %q, want its amount in %s", state, f.Label, f.Value, want)
				}
			}
		}
		if named != 5 {
			t.Errorf("%s allocation: %d of the five amounts shown", state, named)
		}
	}
}

package holder

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/views/viewstest"
)

// TestUpcomingScreenNamesTheToken: on :upcoming each amount is named with
// its token, found by the vester that holds its allocation (MRD, HBR),
// in the list, the weekly bars and the months. Before, they were bare.
func TestUpcomingScreenNamesTheToken(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{Clock: func() time.Time { return viewstest.Now }})
	units := map[string]string{stateID(t, ctx, sandbox.StateActive): "MRD", stateID(t, ctx, sandbox.StateClaimedInPart): "HBR"}
	for id := range units {
		if err := ctx.Journal.SetFollowed(ctx.Session.Deployment(), id, true); err != nil {
			t.Fatal(err)
		}
	}
	u := NewUpcoming(ctx)
	d := viewstest.NewDriver(t, u, 160, 40)
	view := func() string { return ansi.Strip(u.View()) }
	d.Until("the unlocks", func() bool { return strings.Contains(view(), "Per week") })
	listed := map[string]bool{}
	for _, line := range strings.Split(view(), "\n") {
		for id, unit := range units {
			if strings.Contains(line, id) {
				listed[id] = true
				if !strings.HasSuffix(strings.TrimSpace(line), " "+unit) {
					t.Errorf("an unlock of %s not in %s: %q", id, unit, line)
				}
			}
		}
	}
	if len(listed) != 2 {
		t.Fatalf("not both listed:\n%s", view())
	}
	_, totals, _ := strings.Cut(view(), "Per week")
	if !strings.Contains(totals, " MRD") || !strings.Contains(totals, " HBR") || strings.Contains(totals, "0x") {
		t.Errorf("the totals do not name their tokens:\n%s", totals)
	}
}

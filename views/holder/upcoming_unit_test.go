package holder

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/viewstest"
)

// TestUpcomingScreenNamesTheToken: on :upcoming each amount is named with
// its token, found by the vester that holds its allocation (MRD, HBR),
// in the list, the weekly bars (each token's on its own scale) and the
// months, and shows whole down to 60 columns (the id shortened first).
// Before, they were bare, cut off at 80 columns, and the bars of both
// tokens shared one scale.
func TestUpcomingScreenNamesTheToken(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{Clock: func() time.Time { return viewstest.Now }})
	units := map[string]string{stateID(t, ctx, sandbox.StateActive): "MRD", stateID(t, ctx, sandbox.StateClaimedInPart): "HBR"}
	for id := range units {
		if err := ctx.Journal.SetFollowed(ctx.Session.Deployment(), id, true); err != nil {
			t.Fatal(err)
		}
	}
	for _, size := range [][2]int{{160, 40}, {80, 24}, {60, 20}} {
		u := NewUpcoming(ctx)
		d := viewstest.NewDriver(t, u, size[0], size[1])
		view := func() string { return ansi.Strip(u.View()) }
		d.Until("the unlocks", func() bool { return strings.Contains(view(), "Per week") })
		listed := map[string]bool{}
		for _, line := range strings.Split(view(), "\n") {
			for id, unit := range units {
				// Narrower than the whole id, its first 8 characters.
				if strings.Contains(line, id[:8]) && strings.HasPrefix(line, "20") {
					listed[id] = true
					if !strings.HasSuffix(strings.TrimSpace(line), " "+unit) || strings.Contains(line, "…"+unit) {
						t.Errorf("%dx%d: an unlock of %s not in %s: %q", size[0], size[1], id, unit, line)
					}
				}
			}
		}
		if len(listed) != 2 {
			t.Fatalf("%dx%d: not both listed:\n%s", size[0], size[1], view())
		}
		_, totals, _ := strings.Cut(view(), "Per week")
		if !strings.Contains(totals, " MRD") || !strings.Contains(totals, " HBR") || strings.Contains(totals, "0x") {
			t.Errorf("%dx%d: the totals do not name their tokens:\n%s", size[0], size[1], totals)
		}
		// Each token's bars on its own scale: every week unlocks as much of
		// each here, so every bar is full.
		var bars []string
		for _, line := range strings.Split(totals, "\n") {
			if strings.HasPrefix(line, "20") {
				bars = append(bars, line)
			}
		}
		for _, bar := range bars {
			if strings.Count(bar, "█") != strings.Count(bars[0], "█") {
				t.Errorf("%dx%d: the tokens' bars share a scale:\n%s", size[0], size[1], totals)
				break
			}
		}
	}
}

package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/viewstest"
)

// TestUpcomingAmountsWholeWithRoom: with every demo allocation followed,
// :upcoming at 80x24 and 60x20 writes each amount whole to four decimals
// with its token ("11,137.3729 HBR"; it was cut
// "11,137.372909722222222223…", the token lost) and keeps two thirds of
// the screen for the unlocks (2 of them fitted beside the bars); the
// notes' words are whole, the id shortened.
func TestUpcomingAmountsWholeWithRoom(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	for _, id := range append(ctx.Session.Fixtures.LifeAllocationIDs, ctx.Session.Fixtures.AllocationIDs...) {
		if err := ctx.Journal.SetFollowed(ctx.Session.Deployment(), id, true); err != nil {
			t.Fatal(err)
		}
	}
	for _, size := range []struct{ w, h, unlocks int }{{80, 24, 10}, {60, 20, 6}} {
		u := NewUpcoming(ctx)
		d := viewstest.NewDriver(t, u, size.w, size.h)
		view := func() string { return ansi.Strip(u.View()) }
		d.Until("the unlocks", func() bool { return strings.Contains(view(), "Per week") })
		unlocks := 0
		for _, line := range strings.Split(view(), "\n") {
			if ansi.StringWidth(line) > size.w || strings.HasSuffix(line, "…") {
				t.Errorf("%dx%d: a line cut: %q", size.w, size.h, line)
			}
			if strings.HasPrefix(line, "20") && strings.Contains(line, ":") {
				unlocks++
			}
			if strings.HasPrefix(line, "20") && !strings.HasSuffix(line, " HBR") && !strings.HasSuffix(line, " MRD") {
				t.Errorf("%dx%d: an amount without its token: %q", size.w, size.h, line)
			}
		}
		if unlocks < size.unlocks {
			t.Errorf("%dx%d: %d unlocks fit, want %d:\n%s", size.w, size.h, unlocks, size.unlocks, view())
		}
		if !strings.Contains(view(), "2.7777%  79.8619 HBR") || strings.Contains(view(), "79.86194") {
			t.Errorf("%dx%d: not to four decimals:\n%s", size.w, size.h, view())
		}
	}
}

// TestUpcomingWeeksTakeTheRoomLeft: with few unlocks the weeks take the
// room the list leaves ("the first 1 of 6" stood above empty lines).
func TestUpcomingWeeksTakeTheRoomLeft(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	for _, state := range []string{sandbox.StateActive, sandbox.StateClaimedInPart} {
		if err := ctx.Journal.SetFollowed(ctx.Session.Deployment(), stateID(t, ctx, state), true); err != nil {
			t.Fatal(err)
		}
	}
	u := NewUpcoming(ctx)
	d := viewstest.NewDriver(t, u, 80, 22)
	view := func() string { return ansi.Strip(u.View()) }
	d.Until("the unlocks", func() bool { return strings.Contains(view(), "Per week") })
	if !strings.Contains(view(), "Per week, from Monday (UTC):") {
		t.Errorf("weeks left out with room for them:\n%s", view())
	}
}

package holder

import (
	"strings"
	"testing"
	"time"

	"allot/api/sandbox"
	"allot/views"
	"allot/viewstest"
)

// TestUpcomingRefreshesOnTheChainsRhythm: :upcoming reads what is ahead
// again on the chain's rhythm without a key, the followed allocations
// included (here one followed meanwhile by another allot, on file); the
// cursor stays on the unlock it was on, and the header's age starts
// again. It names the amounts as its load did, without asking the
// service's contracts lists again. A service list's rhythm is not its own.
func TestUpcomingRefreshesOnTheChainsRhythm(t *testing.T) {
	now := viewstest.Now
	clock := func() time.Time { return now }
	ctx := viewstest.Journaled(t, sandbox.Options{Clock: clock})
	ctx.Now = clock
	fx := ctx.Session.Fixtures
	one, other := fx.AllocationIDs[0], fx.AllocationIDs[1]

	u := NewUpcoming(ctx).(*upcomingScreen)
	d := viewstest.NewDriver(t, u, 120, 36)
	d.Keys("f")
	d.Until("the unlocks of the one followed", func() bool { return len(u.unlocks()) > 2 })
	d.Keys("j", "j")
	was := u.unlocks()[u.cursor]

	if cmd := u.Update(views.RefreshMsg{}); cmd != nil || u.refreshing {
		t.Fatal("a service list's refresh read the unlocks again")
	}
	if err := ctx.Journal.SetFollowed(ctx.Session.Deployment(), other, true); err != nil {
		t.Fatal(err)
	}
	contractsAsked := func() (n int) {
		for _, x := range ctx.Session.Requests.All() {
			if strings.Contains(x.URL, "/contracts") {
				n++
			}
		}
		return n
	}
	asked := contractsAsked()
	now = now.Add(15 * time.Second)
	d.Run(u.Update(views.RefreshMsg{Chain: true}))
	d.Until("the quiet read", func() bool { return !u.refreshing && strings.Contains(u.View(), other) })
	got := u.unlocks()[u.cursor]
	if got.Allocation != was.Allocation || !got.At.Equal(was.At) || u.cursor == 2 {
		t.Errorf("cursor %d on %s's unlock of %s; was on %s's of %s (now further down)", u.cursor, got.Allocation, got.At, one, was.At)
	}
	if n := contractsAsked(); n != asked {
		t.Errorf("the refresh asked the contracts lists again (%d, before %d)", n, asked)
	}
	if at := u.Freshness().At; !at.Equal(now) {
		t.Errorf("fresh at %s, want %s", at, now)
	}
}

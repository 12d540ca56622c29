package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/core/session"
	"allot/views"
	"allot/viewstest"
)

// TestClaimFormKnowsTheState: C on an allocation of each life opens a
// claim form that says, before anything is sent, what the vester's record
// means: a revoked allocation can be claimed no more, and asking sends no
// claim request to the service; a cancelled one, an underfunded vester and
// a vester that pays only through a handler are said above the form.
func TestClaimFormKnowsTheState(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{} // none unlocked: what the vester says comes first
	for _, tc := range []struct {
		state, says string
		blocked     bool
	}{
		{sandbox.StateRevoked, "Nothing can be claimed: the allocation was revoked on the vester", true},
		{sandbox.StateCancelled, "cancelled at ", false},
		{sandbox.StateUnderfunded, "a claim pays at most what it holds", false},
		{sandbox.StateThroughHandler, "the vester pays only through post-claim handler 0x", false},
	} {
		t.Run(tc.state, func(t *testing.T) {
			a := NewAllocation(ctx).(*allocation)
			d := viewstest.NewDriver(t, a, 120, 36)
			d.Run(a.Update(LookupMsg{ID: stateID(t, ctx, tc.state)}))
			d.Until("looked up", func() bool { return a.result != nil && !a.busy })
			d.Keys("C")
			var c *claim
			d.Until("the claim form", func() bool {
				for _, m := range d.Got {
					if nav, ok := m.(views.NavigateMsg); ok {
						c, _ = nav.Screen.(*claim)
					}
				}
				return c != nil
			})
			if c == nil {
				t.Fatalf("C opened no claim form: %v", d.Got)
			}
			f := viewstest.NewDriver(t, c, 120, 36)
			if view := ansi.Strip(c.View()); !strings.Contains(strings.Join(strings.Fields(view), " "), tc.says) {
				t.Errorf("the claim form does not say %q:\n%s", tc.says, view)
			}
			if !tc.blocked {
				return
			}
			claims := func() (n int) {
				for _, x := range ctx.Session.Requests.All() {
					if strings.HasSuffix(x.URL, "/claim") {
						n++
					}
				}
				return n
			}
			// Nothing is offered but esc: enter and ctrl+s send nothing.
			view := strings.Join(strings.Fields(ansi.Strip(c.View())), " ")
			if strings.Contains(view, "enter reviews") || !strings.Contains(view, "esc goes back") {
				t.Errorf("a claim the vester blocks still offers its review:\n%s", view)
			}
			before := claims()
			f.Keys("ctrl+s")
			f.Keys("enter")
			if c.confirm != nil || claims() != before {
				t.Errorf("a claim the vester blocks: question %v, %d claim requests (before %d)", c.confirm != nil, claims(), before)
			}
		})
	}
}

package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/viewstest"
	"allot/wallet"
)

// TestClaimRequestLostIsChecked: a claim request whose answer is lost is
// sent as every write is: the journal holds it, the check runs at once
// and says what it found, and the form is back to ask again, which is
// safe whatever it found (a claim request signs nothing).
func TestClaimRequestLostIsChecked(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{Faults: sandbox.Faults{Reset: 1, Seed: 3}})
	fx := ctx.Session.Fixtures
	viewstest.Unlock(t, ctx, 0)
	c := NewClaim(ctx, fx.AllocationIDs[0], "", common.Address{}, wallet.ClaimOutlook{}, "").(*claim)
	d := viewstest.NewDriver(t, c, 120, 40)
	d.Keys("enter")
	if c.confirm == nil {
		t.Fatalf("no review:\n%s", ansi.Strip(c.View()))
	}
	d.Keys("y")
	d.Until("the lost answer checked", func() bool { return c.lost != nil && c.Working == "" })
	view := strings.Join(strings.Fields(ansi.Strip(c.View())), " ")
	if !strings.Contains(view, "Checked: the service") || !strings.Contains(view, "Asking again is safe: a claim request signs nothing.") {
		t.Fatalf("the check's finding is not said:\n%s", c.View())
	}
	if w := viewstest.Writes(t, ctx.Journal); len(w) != 1 {
		t.Fatalf("%d writes journaled, want the claim request", len(w))
	}
	if c.Flow != nil || c.Mode().Busy {
		t.Fatalf("after the check: flow %v, mode %+v", c.Flow != nil, c.Mode())
	}
}

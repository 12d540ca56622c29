package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/viewstest"
)

// TestClaimAllLostAnswerIsChecked: a claim request of the batch whose
// answer is lost is checked at once, as a claim's is: nothing is signed,
// and the page says what the check found and that asking again is safe.
func TestClaimAllLostAnswerIsChecked(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{Faults: sandbox.Faults{Reset: 0.5, Seed: claimAllSeed}})
	fx := ctx.Session.Fixtures
	viewstest.Unlock(t, ctx, 0)
	c := NewClaimAll(ctx, fx.AllocationIDs[:1]).(*claimAll)
	d := viewstest.NewDriver(t, c, 120, 40)
	d.Until("what is claimable read", func() bool { return c.read })
	if len(c.claim) != 1 {
		t.Fatalf("claimable %+v, skipped %+v", c.claim, c.skipped)
	}
	d.Keys("enter")
	d.Until("the lost answer checked", func() bool { return c.lost != nil && c.Working == "" })
	view := strings.Join(strings.Fields(ansi.Strip(c.View())), " ")
	if !strings.Contains(view, "Checked: the service") || !strings.Contains(view, "Asking again is safe: a claim request signs nothing.") {
		t.Fatalf("the check's finding is not said:\n%s", c.View())
	}
	if c.Flow != nil {
		t.Fatal("a batch with a lost claim request went on to signing")
	}
}

// claimAllSeed draws a claimable read that gets through (reads are
// retried) and a claim request whose answer is lost (writes are not).
const claimAllSeed = 1

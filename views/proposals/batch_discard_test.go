package proposals

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/views"
	"allot/viewstest"
)

// TestBatchAsksBeforeDiscarding: esc on a list of acts asks before it
// drops them; no keeps them, yes closes the page. On an empty list esc
// is the dashboard's back, asking nothing.
func TestBatchAsksBeforeDiscarding(t *testing.T) {
	ctx, sa := batchCtx(t)
	d := viewstest.NewDriver(t, NewSafeBatch(ctx, sa), 120, 40)
	view := func() string { return ansi.Strip(d.S.View()) }
	shows := func(what string) func() bool { return func() bool { return strings.Contains(view(), what) } }
	backs := func() int {
		n := 0
		for _, m := range d.Got {
			if _, ok := m.(views.BackMsg); ok {
				n++
			}
		}
		return n
	}

	d.Until("the empty list", shows("none yet: c adds a claim"))
	d.Keys("c")
	d.Type(ctx.Session.Fixtures.AllocationIDs[0])
	d.Keys("enter")
	d.Until("the claim added", shows("1. claim allocation"))

	d.Keys("esc")
	d.Until("the question", shows("Discard the act of this batch?"))
	d.Keys("n")
	d.Until("the list kept", func() bool { return !strings.Contains(view(), "Discard the act") })
	if p := d.S.(*propose); len(p.batch.acts) != 1 || backs() != 0 {
		t.Fatalf("after no: %d acts, %d backs", len(p.batch.acts), backs())
	}

	d.Keys("esc")
	d.Until("the question again", shows("Discard the act of this batch?"))
	d.Keys("y")
	d.Until("the page closed", func() bool { return backs() == 1 })

	empty := viewstest.NewDriver(t, NewSafeBatch(ctx, sa), 120, 40)
	empty.Until("the empty list", func() bool { return strings.Contains(ansi.Strip(empty.S.View()), "none yet") })
	empty.Keys("esc")
	empty.Until("the page closed, nothing asked", func() bool {
		for _, m := range empty.Got {
			if _, ok := m.(views.BackMsg); ok {
				return true
			}
		}
		return false
	})
	if strings.Contains(ansi.Strip(empty.S.View()), "Discard") {
		t.Error("esc on an empty batch asked")
	}
}

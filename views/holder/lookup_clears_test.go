package holder

import (
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/viewstest"
)

// TestLookupClearsTheOldError: a lookup that starts clears the status
// line before its answer comes, so an earlier lookup's "✗ … injected
// fault" does not stay beside the lookup that runs. Before, it stayed
// until the new verdict came.
func TestLookupClearsTheOldError(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 120, 40)
	d.Run(a.lookup("00000000-0000-4000-8000-000000000000"))
	d.Until("the lookup failed", func() bool {
		return slices.ContainsFunc(d.Got, func(m tea.Msg) bool { _, ok := m.(views.ErrorMsg); return ok })
	})
	d.Got = nil
	d.Run(a.lookup(ctx.Session.Fixtures.AllocationIDs[0]))
	d.Until("looked up", func() bool { return !a.busy && len(d.Got) > 1 })
	if d.Got[0] != (views.StatusMsg{}) {
		t.Fatalf("as the lookup started, the status line got %#v, want it cleared first", d.Got)
	}
}

// TestLookupClearsBeforeItLoads: the clear and the load are in sequence,
// not a batch whose commands run at once: there, a failure quicker than
// the clear would come first and be wiped by it.
func TestLookupClearsBeforeItLoads(t *testing.T) {
	a := NewAllocation(viewstest.Sandbox(t)).(*allocation)
	cmd := a.lookup("00000000-0000-4000-8000-000000000000")
	if _, batched := cmd().(tea.BatchMsg); batched {
		t.Fatal("the lookup's clear and load run at once: its failure may come before the clear")
	}
}

package holder

import (
	"testing"

	"allot/viewstest"
)

// TestTypedIDReplacesTheShownOne: on a loaded allocation, / (or i) opens
// the id field holding the id shown; an id typed or pasted there replaces
// it (the field is full: appending dropped every key), and enter looks up
// the new one. A backspace first edits the shown id instead.
func TestTypedIDReplacesTheShownOne(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ids := ctx.Session.Fixtures.AllocationIDs
	for _, c := range []struct {
		name string
		put  func(d *viewstest.Driver, id string)
	}{
		{"typed", func(d *viewstest.Driver, id string) { d.Type(id) }},
		{"pasted", func(d *viewstest.Driver, id string) { d.Paste(id) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := NewAllocation(ctx).(*allocation)
			d := viewstest.NewDriver(t, a, 120, 40)
			d.Run(a.lookup(ids[0]))
			d.Until("the first allocation", func() bool { return a.result != nil })
			d.Keys("/")
			c.put(d, ids[1])
			if got := a.input.Value(); got != ids[1] {
				t.Fatalf("the field holds %q, want %q", got, ids[1])
			}
			d.Keys("enter")
			d.Until("the second allocation", func() bool { return !a.busy && a.result != nil && a.result.Proof.ID == ids[1] })
			d.Keys("i", "backspace")
			if got, want := a.input.Value(), ids[1][:len(ids[1])-1]; got != want {
				t.Errorf("a backspace left %q, want %q", got, want)
			}
		})
	}
}

// TestEscPutsTheShownIDBack: esc on an id half typed over a loaded
// allocation stops the edit and puts the shown allocation's id back: the
// field does not name "0b2a" beside another allocation's figures.
func TestEscPutsTheShownIDBack(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	id := ctx.Session.Fixtures.AllocationIDs[0]
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 80, 24)
	d.Run(a.lookup(id))
	d.Until("the allocation", func() bool { return !a.busy && a.result != nil })
	d.Keys("/")
	d.Type("0b2a")
	d.Keys("esc")
	if got := a.input.Value(); got != id || a.input.Focused() {
		t.Errorf("after esc the field holds %q (focused %t), want %q", got, a.input.Focused(), id)
	}
}

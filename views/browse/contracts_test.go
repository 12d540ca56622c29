package browse

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/viewstest"
)

// TestShowContract: ShowContract puts the cursor on the contract and its
// details in the pane, with every contract shown: a filter in force ends
// (even one that hides the contract), and a list still loading is waited
// for.
func TestShowContract(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	c := NewContracts(ctx).(*contracts)
	// Asked before the rows arrive.
	d := viewstest.NewSyncDriver(t, c, 120, 30, viewstest.NoInit)
	init := c.Init()
	want := ctx.Session.Fixtures.ContractIDs[1]
	d.Run(c.Update(ShowContract{ID: want}))
	d.Run(init)
	if row, _ := c.Table.Selected(); row.ID != want || c.Focused != want {
		t.Fatalf("cursor on %q, details of %q; want %q", row.ID, c.Focused, want)
	}

	// A filter that hides the contract ends; the cursor goes to it.
	all := c.Table.Len()
	first := ctx.Session.Fixtures.ContractIDs[0]
	c.Update(viewstest.Key("/"))
	d.Type("Team")
	d.Keys("enter")
	if c.Table.Query() == "" || c.Table.Len() == all {
		t.Fatalf("the filter is not in force: %q, %d rows", c.Table.Query(), c.Table.Len())
	}
	for _, id := range []string{want, first} {
		d.Run(c.Update(ShowContract{ID: id}))
		if row, _ := c.Table.Selected(); row.ID != id || c.Focused != id {
			t.Errorf("cursor on %q, details of %q; want %q", row.ID, c.Focused, id)
		}
		if c.Table.Query() != "" || c.Table.EditingFilter() || c.Table.Len() != all {
			t.Errorf("a filter is left: %q, editing %v, %d of %d rows", c.Table.Query(), c.Table.EditingFilter(), c.Table.Len(), all)
		}
	}
}

// TestContractsNarrowKeepType: at 60 columns the Contracts list shows
// Name, Type and Balance whole; the address, whole in the details, is
// what gives way.
func TestContractsNarrowKeepType(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Compact = true // below 80x24: no side pane, as the dashboard lays it out
	c := NewContracts(ctx).(*contracts)
	viewstest.NewSyncDriver(t, c, 60, 18)
	view := ansi.Strip(c.View())
	header, _, _ := strings.Cut(view, "\n")
	for _, want := range []string{"Name", "Type", "Balance"} {
		if !strings.Contains(header, want) {
			t.Errorf("no %s column at 60 columns:\n%s", want, view)
		}
	}
	for _, want := range []string{"Team & Advisors Vesting", "VESTING", "STAKING", "AIRDROP", "91,978,016.67"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q is not whole at 60 columns:\n%s", want, view)
		}
	}
}

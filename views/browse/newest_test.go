package browse

import (
	"context"
	"testing"

	"allot/viewstest"
)

// TestRequestsOpenOnTheNewest: the inspector lists the newest request
// first and keeps the cursor on it as newer ones arrive; once the user
// moves to another row, the cursor stays on that one.
func TestRequestsOpenOnTheNewest(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	call := func() {
		t.Helper()
		if _, err := ctx.Session.API.Contracts(context.Background(), ctx.Token); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRequests(ctx).(*requests)
	selected := func() int {
		t.Helper()
		row, ok := r.Table.Selected()
		if !ok {
			t.Fatalf("no request selected:\n%s", r.View())
		}
		return row.N
	}
	call()
	// Init's wait for the log to change is dropped: the test refreshes.
	d := viewstest.NewSyncDriver(t, r, 120, 30, viewstest.DropWaiting)
	call()
	call()
	d.Run(r.refresh())
	if got := selected(); got != 2 {
		t.Fatalf("the cursor is on request %d, want the newest, 2:\n%s", got, r.View())
	}
	d.Keys("down")
	call()
	d.Run(r.refresh())
	if got := selected(); got != 1 {
		t.Errorf("the cursor left request 1, which the user chose, for %d", got)
	}
}

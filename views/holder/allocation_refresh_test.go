package holder

import (
	"errors"
	"strings"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/views"
	"allot/viewstest"
)

// TestAllocationRefreshOnTheChainsRhythm: the allocation on show is
// verified again on the chain's rhythm (not the lists'), quietly (not
// busy, the figures kept while it runs), and one that fails keeps them,
// marked stale.
func TestAllocationRefreshOnTheChainsRhythm(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ctx.Now = func() time.Time { return now }
	a := NewAllocation(ctx).(*allocation)
	if a.refresh() != nil {
		t.Fatal("a refresh with no allocation on show")
	}
	d := viewstest.NewDriver(t, a, 120, 36)
	d.Run(a.Update(LookupMsg{ID: stateID(t, ctx, sandbox.StateRevoked)}))
	d.Until("looked up", func() bool { return a.result != nil && !a.busy })
	if got := a.Freshness(); !got.At.Equal(now) {
		t.Fatalf("after the lookup: %+v", got)
	}
	if a.Update(views.RefreshMsg{}) != nil {
		t.Fatal("the lists' rhythm verified the allocation again")
	}
	now = now.Add(15 * time.Second)
	shown := a.result
	cmd := a.Update(views.RefreshMsg{Chain: true})
	if cmd == nil || a.Mode().Busy || a.result != shown {
		t.Fatal("the chain's rhythm did not verify quietly behind the figures on show")
	}
	if a.Update(views.RefreshMsg{Chain: true}) != nil {
		t.Fatal("a second check started while one runs")
	}
	d.Run(cmd)
	d.Until("verified again", func() bool { return !a.refreshing })
	if got := a.Freshness(); !got.At.Equal(now) || got.Stale != nil || a.result == nil {
		t.Fatalf("after the refresh: %+v", got)
	}

	a.Update(views.RefreshMsg{Chain: true})
	a.Update(views.Loaded[reverified]{Seq: a.refreshSeq, Err: errors.New("node down")})
	if got := a.Freshness(); got.Stale == nil || a.result == nil {
		t.Fatalf("a failed refresh: %+v, result %v", got, a.result)
	}
}

// contractsRead counts the contract lists the session asked the service
// for.
func contractsRead(ctx *views.Context) int {
	n := 0
	for _, x := range ctx.Session.Requests.All() {
		if x.Op == "contracts" && x.Attempt == 1 {
			n++
		}
	}
	return n
}

// TestAllocationRefreshReadsNoContractList: the chain's refresh verifies
// the allocation on show again on the contract lists the lookup read; the
// lists' rhythm has them read anew, by the next check. Before, every
// block read the token's contract list (and the profile's file) again.
func TestAllocationRefreshReadsNoContractList(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 120, 36)
	d.Run(a.Update(LookupMsg{ID: stateID(t, ctx, sandbox.StateRevoked)}))
	d.Until("looked up", func() bool { return a.result != nil && !a.busy })
	before := contractsRead(ctx)
	if before == 0 {
		t.Fatal("the lookup read no contract list: the count counts nothing")
	}
	for range 3 {
		d.Run(a.Update(views.RefreshMsg{Chain: true}))
		d.Until("verified again", func() bool { return !a.refreshing })
	}
	if n := contractsRead(ctx); n != before || a.Freshness().Stale != nil {
		t.Fatalf("three chain refreshes read %d contract lists (stale %v)", n-before, a.Freshness().Stale)
	}
	if a.Update(views.RefreshMsg{}) != nil {
		t.Fatal("the lists' rhythm verified the allocation by itself")
	}
	d.Run(a.Update(views.RefreshMsg{Chain: true}))
	d.Until("verified again", func() bool { return !a.refreshing })
	if contractsRead(ctx) == before {
		t.Fatal("after the lists' rhythm, the check did not read the contract lists anew")
	}
	before = contractsRead(ctx)
	d.Run(a.Update(views.RefreshMsg{Chain: true}))
	d.Until("verified again", func() bool { return !a.refreshing })
	if n := contractsRead(ctx); n != before {
		t.Fatalf("the chain refresh after read %d contract lists again", n-before)
	}
}

// TestLookupTriedAgainWhenTheServiceIsBack: a lookup that failed as the
// service was down (a 503 after every try) is made again on the lists'
// rhythm: its error leaves the status line as it starts, and the verdict
// follows once the service answers. One the service refused (a 404) is
// not: asked again it would say the same.
func TestLookupTriedAgainWhenTheServiceIsBack(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	id := stateID(t, ctx, sandbox.StateRevoked)
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 120, 36)
	a.Update(LookupMsg{ID: id}) // its answer is the outage below
	down := &api.StatusError{Op: "allocations/merkle-proof", Status: 503, Kind: api.ErrServer}
	if msg := a.Update(views.Loaded[lookedUp]{Seq: a.seq, Err: down})(); a.result != nil || msg.(views.ErrorMsg).Err != down {
		t.Fatalf("the failed lookup said %#v", msg)
	}
	d.Run(a.Update(views.RefreshMsg{}))
	d.Until("looked up again, its verdict said", func() bool { return a.result != nil && len(d.Got) >= 2 })
	if len(d.Got) < 2 || d.Got[0] != (views.StatusMsg{}) {
		t.Fatalf("the status line got %#v: want the old error cleared first", d.Got)
	}
	if st, ok := d.Got[len(d.Got)-1].(views.StatusMsg); !ok || !strings.Contains(st.Text, id) {
		t.Fatalf("the status line got %#v last: want the verdict", d.Got)
	}

	b := NewAllocation(ctx).(*allocation)
	b.Update(LookupMsg{ID: id})
	b.Update(views.Loaded[lookedUp]{Seq: b.seq, Err: &api.StatusError{Op: "allocations/merkle-proof", Status: 404, Kind: api.ErrNotFound}})
	if b.Update(views.RefreshMsg{}) != nil {
		t.Fatal("a lookup the service refused was made again")
	}
}

// TestAllocationReadAgainAfterItsWrites: a claim, a transfer or a Safe's
// execution mined (which may be either) has the allocation on show read
// again at once, not on the next block; another transaction, or one not
// final yet, does not.
func TestAllocationReadAgainAfterItsWrites(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 120, 36)
	d.Run(a.Update(LookupMsg{ID: ctx.Session.Fixtures.AllocationIDs[0]}))
	d.Until("looked up", func() bool { return a.result != nil && !a.busy })
	for _, c := range []struct {
		msg  views.TxStatusMsg
		read bool
	}{
		{views.TxStatusMsg{Op: "approve", Final: true}, false},
		{views.TxStatusMsg{Op: "safe exec"}, false},
		{views.TxStatusMsg{Op: "claim", Final: true}, true},
		{views.TxStatusMsg{Op: "transfer", Final: true}, true},
		{views.TxStatusMsg{Op: "safe exec", Final: true}, true},
	} {
		cmd := a.Update(c.msg)
		if read := cmd != nil && a.busy; read != c.read {
			t.Errorf("%s (final %v): read again %v, want %v", c.msg.Op, c.msg.Final, read, c.read)
		}
		if cmd != nil {
			d.Run(cmd)
			d.Until("read again", func() bool { return !a.busy })
		}
	}
}

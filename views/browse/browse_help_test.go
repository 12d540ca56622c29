package browse

import (
	"context"
	"testing"

	"allot/api"
	"allot/views"
	"allot/viewstest"
)

// TestBrowseHelpNamesEveryKeyHandled: each browse screen's help names
// every key it answers and offers no key that does nothing, browsing a
// loaded list (the cursor on a middle row) and editing its filter.
func TestBrowseHelpNamesEveryKeyHandled(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	loaded := func(open func() views.Screen, keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen {
			s := open()
			viewstest.NewSyncDriver(t, s, 120, 30).Keys(keys...)
			return s
		}
	}
	contracts := func() views.Screen { return NewContracts(ctx) }
	pools := func() views.Screen { return NewPools(ctx) }
	stakes := func() views.Screen {
		return NewStakes(ctx, api.Pool{ID: ctx.Session.Fixtures.PoolIDs[0], Name: "Pool", Status: "ACTIVE"})
	}
	// The requests screen's Init also waits for the log to change, which
	// every key checked would wait out: its rows are read at once instead.
	if _, err := ctx.Session.API.Contracts(context.Background(), ctx.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := ctx.Session.API.Pools(context.Background(), ctx.Token, ""); err != nil {
		t.Fatal(err)
	}
	requests := func(t *testing.T) views.Screen {
		r := NewRequests(ctx).(*requests)
		viewstest.NewSyncDriver(t, r, 120, 30, viewstest.NoInit).Run(r.refresh())
		r.Update(viewstest.Key("j"))
		r.Update(viewstest.Key("J"))
		return r
	}
	details := func(t *testing.T) views.Screen {
		page := opened(loaded(contracts)(t).Update(viewstest.Key("d")))
		if page == nil {
			t.Fatal("d on a contract opened nothing")
		}
		page.SetSize(80, 5)
		page.Update(viewstest.Key("j"))
		return page
	}
	for _, c := range []viewstest.HelpCase{
		{Name: "contracts", Build: loaded(contracts, "j")},
		{Name: "contracts filtering", Build: loaded(contracts, "j", "/"), Typing: true},
		{Name: "pools", Build: loaded(pools, "j", "J")},
		{Name: "stakes", Build: loaded(stakes, "j")},
		{Name: "stakes filtering", Build: loaded(stakes, "j", "/"), Typing: true},
		{Name: "stakes histogram", Build: loaded(stakes, "j", "h")},
		{Name: "pools filtering", Build: loaded(pools, "j", "/"), Typing: true},
		{Name: "requests filtering", Build: func(t *testing.T) views.Screen {
			r := requests(t)
			r.Update(viewstest.Key("/"))
			return r
		}, Typing: true},
		{Name: "requests", Build: requests},
		{Name: "details page", Build: details},
	} {
		viewstest.CheckHelp(t, c)
	}
}

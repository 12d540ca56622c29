package holder

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/api/sandbox"
	"allot/internal/session"
	"allot/views"
	"allot/views/viewstest"
)

// TestHolderHelpNamesEveryKeyHandled: each holder screen's help names
// every key it answers and offers no key that does nothing, in its main
// states: the allocation lookup picking, typing an id and showing a
// result; the claim and stake forms; the unlock list and its passphrase;
// the portal idle and typing a wallet.
func TestHolderHelpNamesEveryKeyHandled(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	ctx.Wallet = &session.Wallet{}
	open := func(s views.Screen, keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen {
			d := viewstest.NewDriver(t, s, 110, 34)
			d.Until("loaded", func() bool { return !s.Mode().Busy })
			d.Keys(keys...)
			d.Until("settled", func() bool { return !s.Mode().Busy })
			return s
		}
	}
	allocation := func(keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen { return open(NewAllocation(ctx), keys...)(t) }
	}
	id := ctx.Session.Fixtures.AllocationIDs[0]
	claim := func(keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen { return open(NewClaim(ctx, id, "1500", common.Address{}), keys...)(t) }
	}
	stake := func(t *testing.T) views.Screen {
		return open(NewStake(ctx, api.Pool{ID: ctx.Session.Fixtures.PoolIDs[0], Name: "Pool", Status: "ACTIVE"}))(t)
	}
	unlock := func(keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen { return open(NewUnlock(ctx), keys...)(t) }
	}
	portal := func(keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen { return open(NewPortal(ctx), keys...)(t) }
	}
	for _, c := range []viewstest.HelpCase{
		{Name: "allocation picking", Build: allocation("esc", "down", "down")},
		{Name: "allocation typing an id", Build: allocation("i"), Typing: true},
		{Name: "allocation result", Build: allocation("esc", "down", "enter", "J")},
		{Name: "claim form", Build: claim(), Typing: true},
		{Name: "claim form's last field", Build: claim("tab"), Typing: true},
		{Name: "stake form", Build: stake, Typing: true},
		{Name: "unlock list", Build: unlock("down")},
		{Name: "unlock passphrase", Build: unlock("enter"), Typing: true},
		{Name: "portal", Build: portal()},
		{Name: "portal typing a wallet", Build: portal("h"), Typing: true},
	} {
		viewstest.CheckHelp(t, c)
	}
}

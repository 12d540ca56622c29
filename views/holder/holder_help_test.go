package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/session"
	"allot/views"
	"allot/viewstest"
	"allot/wallet"
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
			// Each key once what the one before started has ended: a
			// scroll pressed while the result loads would scroll nothing.
			for _, k := range keys {
				d.Keys(k)
				d.Until("settled after "+k, func() bool { return !s.Mode().Busy })
			}
			return s
		}
	}
	allocation := func(keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen { return open(NewAllocation(ctx), keys...)(t) }
	}
	id := ctx.Session.Fixtures.AllocationIDs[0]
	claim := func(keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen {
			return open(NewClaim(ctx, id, "1500", common.Address{}, wallet.ClaimOutlook{}, ""), keys...)(t)
		}
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

// TestClaimSigningHelpNamesEveryKeyHandled: with an account unlocked, the
// portal's sign-in question, the claim's request question and the
// signing review that follows it name every key they answer.
func TestClaimSigningHelpNamesEveryKeyHandled(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	ctx.Wallet = &session.Wallet{}
	u := viewstest.NewDriver(t, NewUnlock(ctx), 100, 30)
	u.Until("the accounts", func() bool { return !u.S.Mode().Busy })
	u.Keys("enter")
	u.Type("allot-demo-0")
	u.Keys("enter")
	u.Until("the account unlocked", func() bool { _, _, ok := ctx.Wallet.Account(); return ok })
	id := ctx.Session.Fixtures.AllocationIDs[0]
	claim := func(answer ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen {
			c := NewClaim(ctx, id, "", common.Address{}, wallet.ClaimOutlook{}, "").(*claim)
			// 30 rows: the review scrolls above the question. At 40 it
			// was a row or two from fitting, and the fees' digits, which
			// each build reads anew, decided which.
			d := viewstest.NewDriver(t, c, 110, 30)
			d.Keys("ctrl+s")
			if c.confirm == nil {
				t.Fatalf("no claim question:\n%s", c.View())
			}
			d.Keys(answer...)
			if len(answer) > 0 {
				d.Until("the signing review", func() bool { return c.Flow != nil && c.Mode().TakesKeys })
				if !strings.Contains(ansi.Strip(c.View()), "Sign and send") {
					t.Fatalf("no signing question:\n%s", c.View())
				}
			}
			return c
		}
	}
	// The sign-in message, scrolled on a short page, and its question.
	portal := func(t *testing.T) views.Screen {
		p := NewPortal(ctx)
		d := viewstest.NewDriver(t, p, 100, 20)
		d.Keys("s")
		d.Until("the sign-in question", func() bool { return p.(*portal).confirm != nil })
		d.Keys("down")
		return p
	}
	for _, c := range []viewstest.HelpCase{
		{Name: "portal sign-in question", Build: portal},
		{Name: "claim question", Build: claim()},
		{Name: "signing review", Build: claim("y")},
	} {
		viewstest.CheckHelp(t, c)
	}
}

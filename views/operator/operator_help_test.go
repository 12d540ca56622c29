package operator

import (
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/journal"
	"allot/views"
	"allot/viewstest"
)

// TestOperatorHelpNamesEveryKeyHandled: the operator screen's help names
// every key it answers and offers no key that does nothing: on a text
// field, on a choice, in the list of recent lookups, in the review of the
// request and on its result.
func TestOperatorHelpNamesEveryKeyHandled(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	fx := ctx.Session.Fixtures
	for _, id := range fx.AllocationIDs[:2] {
		if err := ctx.Journal.Append(journal.Entry{Kind: journal.KindLookup, Profile: ctx.Session.Name, Ref: id}); err != nil {
			t.Fatal(err)
		}
	}
	open := func(action string, then func(d *viewstest.Driver)) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen {
			o := New(ctx, api.Contract{ID: fx.ContractIDs[0], Name: "Meridian vesting"}, action).(*operator)
			o.form.SetCursorMode(cursor.CursorStatic)
			d := viewstest.NewDriver(t, o, 120, 34)
			if then != nil {
				then(d)
			}
			return o
		}
	}
	review := func(d *viewstest.Driver) {
		d.Type(fx.AdminWalletIDs[0])
		d.Keys("enter")
	}
	for _, c := range []viewstest.HelpCase{
		{Name: "form on a text field", Typing: true, Build: open(api.ActionInitialize, nil)},
		{Name: "form on a choice", Build: open(api.ActionFundDistribution, func(d *viewstest.Driver) { d.Keys("shift+tab") })},
		{Name: "recent lookups", Build: open(api.ActionStartDistribution, func(d *viewstest.Driver) { d.Keys("ctrl+r", "down") })},
		{Name: "review", Build: open(api.ActionInitialize, review)},
		{Name: "result", Build: open(api.ActionInitialize, func(d *viewstest.Driver) {
			review(d)
			d.Keys("y")
			o := d.S.(*operator)
			d.Until("the result", func() bool { return o.state == stageResult })
			// One transaction fits, and then no key but the dashboard's esc
			// acts: the case would check nothing. More than the page holds
			// (as a funding's rows give) make the result scroll.
			for len(o.result.Transactions) < 40 {
				o.result.Transactions = append(o.result.Transactions, o.result.Transactions[0])
			}
			o.SetSize(120, 34)
		})},
	} {
		viewstest.CheckHelp(t, c)
	}
	// The page of a write whose answer was lost in an earlier run, once
	// its check has answered (it cannot tell: c and r both act), reopened
	// from the exact body a review holds.
	body := open(api.ActionInitialize, review)(t).(*operator).body
	viewstest.CheckHelp(t, viewstest.HelpCase{Name: "unknown", Build: func(t *testing.T) views.Screen {
		o := Reopen(ctx, api.ActionInitialize, "w-earlier-run", body, time.Now()).(*operator)
		d := viewstest.NewDriver(t, o, 120, 34)
		d.Until("checked", func() bool { return !o.outcome.Checking() })
		if _, refused := o.outcome.Resend(); refused != "" || o.outcome.Applied() {
			t.Fatalf("the reopened write is not one r sends again: %q", refused)
		}
		return o
	}})
}

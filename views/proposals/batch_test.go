package proposals

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/views"
	"allot/viewstest"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// batchCtx is a context on the embedded sandbox with demo wallet 0
// unlocked, and a 2-of-2 Safe it owns (read from no chain: the batch's
// list asks nothing of one).
func batchCtx(t *testing.T) (*views.Context, session.SafeAccount) {
	t.Helper()
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{}
	me := viewstest.Unlock(t, ctx, 0)
	addr := common.HexToAddress("0x2Af577581960ed98CEEb6831ef3e85303FC68b4c")
	info := safe.Info{Address: addr, Version: "1.4.1", Owners: []common.Address{me, {0x02}},
		Threshold: 2, Nonce: big.NewInt(0)}
	return ctx, session.SafeAccount{Address: addr, Info: info}
}

// TestBatchRefusesABadActKeepingTheRest: the owner adds acts one at a
// time; an act with a malformed id or a stake of nothing is refused with
// the reason under its field, what was typed stays in the form and the
// acts added before stay in the list; d removes the act selected.
func TestBatchRefusesABadActKeepingTheRest(t *testing.T) {
	ctx, sa := batchCtx(t)
	fx := ctx.Session.Fixtures
	d := viewstest.NewDriver(t, NewSafeBatch(ctx, sa), 120, 40)
	view := func() string { return ansi.Strip(d.S.View()) }
	shows := func(what string) func() bool { return func() bool { return strings.Contains(view(), what) } }

	d.Until("the empty list", shows("none yet: c adds a claim"))
	d.Keys("c")
	d.Type(fx.AllocationIDs[0])
	d.Keys("enter")
	d.Until("the claim added", shows("1. claim allocation "+fx.AllocationIDs[0]))

	d.Keys("c")
	for _, b := range d.S.Keys() {
		if slices.Contains(b.Key.Keys(), "esc") && b.Key.Help().Desc != "back to the acts" {
			t.Errorf("in an act's form esc is %q: it goes back to the acts", b.Key.Help().Desc)
		}
	}
	d.Type("not-an-id")
	d.Keys("enter")
	if why := viewstest.ErrUnder(view(), "Allocation id"); !strings.Contains(why, "allocation id") || !strings.Contains(view(), "not-an-id") {
		t.Errorf("a malformed id: %q under the field, view:\n%s", why, view())
	}
	d.Keys("esc")
	d.Until("the list again", shows("Acts, in the order the Safe makes them: 1 of at most"))

	d.Keys("s")
	d.Until("the stake's form", shows("Amount (tokens)"))
	d.Keys("down")
	d.Type("0")
	d.Keys("enter")
	if why := viewstest.ErrUnder(view(), "Amount (tokens)"); !strings.Contains(why, "greater than 0") {
		t.Errorf("a stake of 0: %q under the amount, view:\n%s", why, view())
	}
	d.Keys("backspace")
	d.Type("1.5")
	d.Keys("enter")
	d.Until("the stake added", shows("2. stake 1.50 tokens in"))

	to := fx.Wallets[2].Address
	d.Keys("t")
	d.Type(fx.AllocationIDs[1])
	d.Keys("tab")
	d.Type(to)
	d.Keys("enter")
	d.Until("the transfer added", func() bool {
		return strings.Contains(strings.Join(strings.Fields(view()), " "), "3. transfer allocation "+fx.AllocationIDs[1]+": every later claim pays "+to)
	})

	d.Keys("up", "d")
	d.Until("the stake removed", func() bool { return !strings.Contains(view(), "stake 1.50") })
	p := d.S.(*propose)
	if len(p.batch.acts) != 2 || p.batch.acts[0].Op != proposal.OpClaim || p.batch.acts[1].Op != proposal.OpTransfer {
		t.Errorf("the acts after removing the stake: %+v", p.batch.acts)
	}
}

// TestBatchHoldsAtMostMaxCalls: c, s and t say why once the batch holds
// as many acts as a Safe proposal holds calls.
func TestBatchHoldsAtMostMaxCalls(t *testing.T) {
	ctx, sa := batchCtx(t)
	p := NewSafeBatch(ctx, sa).(*propose)
	p.SetSize(100, 30)
	for range proposal.MaxCalls {
		p.batch.acts = append(p.batch.acts, session.BatchAct{Op: proposal.OpClaim, Subject: ctx.Session.Fixtures.AllocationIDs[0]})
	}
	for _, k := range []string{"c", "s", "t"} {
		msg, _ := p.Update(viewstest.Key(k))().(views.StatusMsg)
		if !msg.Error || !strings.Contains(msg.Text, "at most 20 acts") {
			t.Errorf("%s with %d acts: %+v", k, proposal.MaxCalls, msg)
		}
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "20 of at most 20") || !strings.Contains(v, "▶  1. claim") {
		t.Errorf("the list of 20 acts:\n%s", v)
	}
}

// TestBatchHelpNamesEveryKeyHandled: the batch's help names every key
// it answers, and offers none that does nothing: the empty list, a list
// of acts, and an act's form.
func TestBatchHelpNamesEveryKeyHandled(t *testing.T) {
	ctx, sa := batchCtx(t)
	build := func(acts int, adding string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen {
			p := NewSafeBatch(ctx, sa).(*propose)
			p.SetSize(100, 40)
			for range acts {
				p.batch.acts = append(p.batch.acts, session.BatchAct{Op: proposal.OpClaim, Subject: ctx.Session.Fixtures.AllocationIDs[0]})
			}
			p.batch.cursor = max(acts-1, 0)
			if adding != "" {
				p.startAdding(adding)
			}
			return p
		}
	}
	for _, c := range []viewstest.HelpCase{
		{Name: "no act yet", Build: build(0, "")},
		{Name: "two acts", Build: build(2, ""), Idle: []string{"down", "j"}},
		{Name: "a claim's form", Build: build(2, proposal.OpClaim), Typing: true},
		{Name: "a transfer's form", Build: build(2, proposal.OpTransfer), Typing: true},
	} {
		viewstest.CheckHelp(t, c)
	}
}

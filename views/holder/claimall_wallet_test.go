package holder

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/core/session"
	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// TestClaimAllOfAnUnknownWallet: a wallet none of whose allocations allot
// knows gets no empty list but what allot looked at (the followed
// allocations and the sandbox's demo ones: the service lists no wallet's
// allocations) and how to follow one; enter sends nothing.
func TestClaimAllOfAnUnknownWallet(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	ctx.Wallet = &session.Wallet{}
	stranger := common.HexToAddress("0x00000000000000000000000000000000000b0b01")
	c := NewClaimAllOf(ctx, stranger).(*claimAll)
	d := viewstest.NewDriver(t, c, 100, 40)
	d.Until("the allocations looked at", func() bool { return c.read })
	view := strings.Join(strings.Fields(ansi.Strip(c.View())), " ")
	fx := ctx.Session.Fixtures
	demo := len(fx.AllocationIDs) + len(fx.LifeAllocationIDs)
	for _, want := range []string{
		"Claim all claimable of " + stranger.Hex(),
		"allot knows no allocation of this wallet.",
		"allot looks only at the allocations you follow and the sandbox's demo allocations (" + strconv.Itoa(demo) + " here)",
		"look it up with 3 (the Allocation screen) and its id, then press f",
		"esc goes back: nothing is sent",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the page lacks %q:\n%s", want, c.View())
		}
	}
	d.Keys("enter")
	if c.Working != "" || c.Flow != nil || len(d.Got) != 0 {
		t.Errorf("enter did something on an empty page: working %q, %v", c.Working, d.Got)
	}
}

// TestClaimAllOfAWalletCountsWhatItCouldNotRead: a followed allocation
// that cannot be read is not counted as the wallet's (whose it is is not
// known) but said, with why; the wallet is not called unknown then.
func TestClaimAllOfAWalletCountsWhatItCouldNotRead(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	ctx.Wallet = &session.Wallet{}
	const missing = "00000000-0000-4000-8000-000000000000"
	if err := follows(ctx).Set(missing, true); err != nil {
		t.Fatal(err)
	}
	stranger := common.HexToAddress("0x00000000000000000000000000000000000b0b01")
	c := NewClaimAllOf(ctx, stranger).(*claimAll)
	d := viewstest.NewDriver(t, c, 200, 40)
	d.Until("the allocations looked at", func() bool { return c.read })
	view := strings.Join(strings.Fields(ansi.Strip(c.View())), " ")
	for _, want := range []string{"0 go to this wallet; 1 could not be read.", "Skipped " + missing + ": "} {
		if !strings.Contains(view, want) {
			t.Errorf("the page lacks %q:\n%s", want, c.View())
		}
	}
	if strings.Contains(view, "allot knows no allocation of this wallet") {
		t.Errorf("a wallet with an unread allocation followed is called unknown:\n%s", c.View())
	}
}

// TestAccountsPageClaimsAllOfASafe: on the accounts page the cursor moves
// on from the keystore's keys to the profile's Safe; enter there says a
// Safe is no key to unlock, and C, with a key unlocked, opens the
// claim-all page of the Safe's allocations.
func TestAccountsPageClaimsAllOfASafe(t *testing.T) {
	h, treasury, _, _ := sandboxSafes(t)
	h.Session.Profile.Safes = []string{treasury.Hex()}
	fx := h.Session.Fixtures
	ctx := &views.Context{Session: h.Session, Now: time.Now, Styles: widget.DefaultStyles(),
		Clipboard: widget.Clipboard{Out: io.Discard}, Token: h.Session.TokenIDs[0], Wallet: &session.Wallet{}}
	viewstest.Unlock(t, ctx, 0)
	u := viewstest.NewDriver(t, NewUnlock(ctx), 120, 80)
	page := u.S.(*unlock)
	u.Until("the keys and the Safe", func() bool { return page.loaded && len(page.safes.list) == 1 })
	for range fx.Wallets {
		u.Keys("j")
	}
	if !strings.Contains(ansi.Strip(u.S.View()), "▶ "+treasury.Hex()) {
		t.Fatalf("the cursor is not on the Safe:\n%s", ansi.Strip(u.S.View()))
	}
	u.Keys("enter")
	if page.pass.Focused() {
		t.Error("enter on a Safe asks for a passphrase")
	}
	u.Keys("C")
	var refused string
	var opened *claimAll
	u.Until("enter's refusal and the claim-all page", func() bool {
		for _, m := range u.Got {
			switch m := m.(type) {
			case views.NavigateMsg:
				opened, _ = m.Screen.(*claimAll)
			case views.StatusMsg:
				refused = m.Text
			}
		}
		return opened != nil && refused != ""
	})
	if !strings.Contains(refused, "a Safe has no key") {
		t.Errorf("enter on a Safe did not say why it does nothing: %v", u.Got)
	}
	if opened == nil || opened.holder == nil || *opened.holder != treasury {
		t.Fatalf("C on the Safe did not open its claim-all page: %#v", u.Got)
	}
}

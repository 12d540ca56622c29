package proposals

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/core/session/sessiontest"
	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
	"allot/wallet/keystore"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/safetest"
)

// TestListShowsAnotherProcesssSignature: a proposal of a 2-of-3 Safe (the
// real Safe 1.4.1 on the sandbox's chain) signed by owner 0 is listed as
// "1 of 2 signatures"; owner 1 signs it in another process (the session's
// code `allot safe sign` runs, writing the state directory's copy); the
// list's next refresh says "ready".
func TestListShowsAnotherProcesssSignature(t *testing.T) {
	ctx, p, sign := proposedClaim(t)
	sign(0)
	l := viewstest.NewDriver(t, New(ctx), 120, 30)
	view := func() string { return ansi.Strip(l.S.View()) }
	l.Until("the proposal", func() bool { return strings.Contains(view(), "1 of 2 signatures") })
	if !strings.Contains(view(), "claim of "+ctx.Session.Fixtures.AllocationIDs[0]) || !strings.Contains(view(), p.Safe.Hex()[:8]) {
		t.Errorf("the list lacks the act or the Safe:\n%s", view())
	}
	sign(1)
	l.Run(l.S.Update(views.RefreshMsg{}))
	l.Until("the new signature", func() bool { return strings.Contains(view(), "ready") })
}

// TestPageSignsNothingThePolicyRefuses: owner 1, unlocked, presses s on a
// proposal the signing policy cannot approve (a claim whose call is no
// withdraw of a pinned vester): the page says why, and the file keeps its
// one signature.
func TestPageSignsNothingThePolicyRefuses(t *testing.T) {
	ctx, p, sign := proposedClaim(t)
	sign(0)
	s, fx := ctx.Session, ctx.Session.Fixtures
	store, err := ctx.Wallet.Store(s)
	if err != nil {
		t.Fatal(err)
	}
	owner1 := common.HexToAddress(fx.Wallets[1].Address)
	if err := store.Unlock(owner1, fx.Wallets[1].Passphrase); err != nil {
		t.Fatal(err)
	}
	ctx.Wallet.Unlocked(owner1)
	file := p.Hashes.SafeTx.Hex() + ".json"
	sp, err := s.ReadProposal(t.Context(), file)
	if err != nil || sp.Err != nil {
		t.Fatal(err, sp.Err)
	}
	pg := viewstest.NewDriver(t, NewPage(ctx, sp), 120, 60)
	view := func() string { return ansi.Strip(pg.S.View()) }
	pg.Until("the page", func() bool {
		return strings.Contains(view(), "s  sign as an owner") && !strings.Contains(view(), "Decoding")
	})
	pg.Key(viewstest.Key("s"))
	pg.Until("the refusal", func() bool { return strings.Contains(view(), "✗ REFUSED by the signing policy; nothing was signed") })
	if strings.Contains(view(), "Sign the safeTxHash") {
		t.Errorf("the page asks to sign what the policy refused:\n%s", view())
	}
	after, err := s.ReadProposal(t.Context(), file)
	if err != nil || len(after.Proposal.Signatures) != 1 {
		t.Fatalf("after the refusal: %v, %+v", err, after.Proposal)
	}
}

// proposedClaim makes a 2-of-3 Safe of demo wallets 0, 1 and 2 (the real
// Safe 1.4.1 on the sandbox's chain) and a proposal of a claim of demo
// allocation 0 whose call is no withdraw, which the signing policy
// refuses; sign(i) signs it
// as owner i and writes the state directory's copy, as `allot safe sign`
// does. The test skips without the Safe contracts.
func proposedClaim(t *testing.T) (*views.Context, *proposal.Proposal, func(int)) {
	t.Helper()
	safetest.Dir(t, safetest.Contracts) // skips before the sandbox starts
	h := sessiontest.NewHostile(t, t.TempDir())
	s, fx := h.Session, h.Session.Fixtures
	d := h.SafeDeployer(t)
	safes := safetest.DeploySafes(t, d)
	owners := []common.Address{common.HexToAddress(fx.Wallets[0].Address), common.HexToAddress(fx.Wallets[1].Address), common.HexToAddress(fx.Wallets[2].Address)}
	treasury := safes.Create(t, d, safes.Singleton, owners, 2, 1)
	node, err := s.SafeNode()
	if err != nil {
		t.Fatal(err)
	}
	info, err := safe.Read(t.Context(), node, treasury)
	if err != nil {
		t.Fatal(err)
	}
	calls := []safe.InnerCall{{To: common.HexToAddress("0xf8DC04225a44627247D033e3b36799369cda6F23"), Data: []byte{1, 2, 3, 4}}}
	p, err := proposal.New(s.Profile.ChainID, info, proposal.Act{Op: proposal.OpClaim, Subject: fx.AllocationIDs[0]}, calls, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	store, err := keystore.Open(filepath.Dir(fx.Wallets[0].KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	sign := func(i int) {
		if err := store.Unlock(owners[i], fx.Wallets[i].Passphrase); err != nil {
			t.Fatal(err)
		}
		if err := session.SignSafeTx(nil, store, owners[i], p); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveProposal(p, ""); err != nil {
			t.Fatal(err)
		}
	}
	ctx := &views.Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard},
		Token: s.TokenIDs[0], Wallet: &session.Wallet{}}
	return ctx, p, sign
}

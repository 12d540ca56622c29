package proposals

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/session"
	"allot/internal/session/sessiontest"
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
	p, err := proposal.New(s.Profile.ChainID, info, proposal.Act{Op: proposal.OpClaim, Subject: "alloc-1"}, calls, common.Address{})
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
		if err := session.SignSafeTx(store, owners[i], p); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveProposal(p, ""); err != nil {
			t.Fatal(err)
		}
	}
	sign(0)

	ctx := &views.Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard},
		Token: s.TokenIDs[0], Wallet: &session.Wallet{}}
	l := viewstest.NewDriver(t, New(ctx), 120, 30)
	view := func() string { return ansi.Strip(l.S.View()) }
	l.Until("the proposal", func() bool { return strings.Contains(view(), "1 of 2 signatures") })
	if !strings.Contains(view(), "claim of alloc-1") || !strings.Contains(view(), treasury.Hex()[:8]) {
		t.Errorf("the list lacks the act or the Safe:\n%s", view())
	}
	sign(1)
	l.Run(l.S.Update(views.RefreshMsg{}))
	l.Until("the new signature", func() bool { return strings.Contains(view(), "ready") })
}

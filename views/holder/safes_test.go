package holder

import (
	"errors"
	"fmt"
	"io"
	"math/big"
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
	"allot/wallet/safe"
	"allot/wallet/safe/safetest"
)

// sandboxSafes starts the sandbox and its chain, deploys the real Safe
// 1.4.1 contracts there (from npm; the test skips without them), and
// makes a 2-of-3 Safe whose first two owners are demo wallets, whose keys
// the profile's keystore holds, and a proxy of something that is no Safe.
func sandboxSafes(t *testing.T) (h *sessiontest.Hostile, treasury, fake common.Address, owners []common.Address) {
	t.Helper()
	safetest.Dir(t, safetest.Contracts) // skips before the sandbox starts
	h = sessiontest.NewHostile(t, t.TempDir())
	d := h.SafeDeployer(t)
	safes := safetest.DeploySafes(t, d)
	fx := h.Session.Fixtures
	owners = []common.Address{common.HexToAddress(fx.Wallets[0].Address), common.HexToAddress(fx.Wallets[1].Address),
		common.HexToAddress("0x00000000000000000000000000000000000b0b01")}
	treasury = safes.Create(t, d, safes.Singleton, owners, 2, 1)
	fake = safes.Proxy(t, d, safes.MultiSendAddr, 2)
	return h, treasury, fake, owners
}

// TestUnlockListsTheProfilesSafes: the accounts page lists the profile's
// Safes under the keystore's accounts, read from the sandbox's chain: the
// real Safe with "2 of 3", its nonce and its owners, the two whose keys
// the keystore holds marked; the proxy of something else shown with why,
// not as an account. A Safe listed later shows on the lists' rhythm.
func TestUnlockListsTheProfilesSafes(t *testing.T) {
	h, treasury, fake, owners := sandboxSafes(t)
	h.Session.Profile.Safes = []string{treasury.Hex()}
	ctx := &views.Context{Session: h.Session, Now: time.Now, Styles: widget.DefaultStyles(),
		Clipboard: widget.Clipboard{Out: io.Discard}, Token: h.Session.TokenIDs[0], Wallet: &session.Wallet{}}
	u := viewstest.NewDriver(t, NewUnlock(ctx), 120, 80)
	view := func() string { return strings.Join(strings.Fields(ansi.Strip(u.S.View())), " ") }
	// The keystore and the Safes are read apart: both, before the marks.
	u.Until("the Safe and the keystore", func() bool { return strings.Contains(view(), "2 owners' keys are in the keystore") })
	for _, want := range []string{
		"Safes of the profile", treasury.Hex() + " Safe 1.4.1", "2 of 3 owners sign · nonce 0 · 2 owners' keys are in the keystore",
		"✓ " + owners[0].Hex() + " key in the keystore", "✓ " + owners[1].Hex() + " key in the keystore",
	} {
		if !strings.Contains(view(), want) {
			t.Errorf("the page lacks %q:\n%s", want, ansi.Strip(u.S.View()))
		}
	}
	if v := view(); strings.Contains(v, "✓ "+owners[2].Hex()) || !strings.Contains(v, owners[2].Hex()) {
		t.Errorf("the third owner, whose key is not here, is not listed unmarked:\n%s", ansi.Strip(u.S.View()))
	}
	if f := u.S.(views.Refresher).Freshness(); f.At.IsZero() || f.Stale != nil {
		t.Errorf("freshness %+v", f)
	}

	h.Session.Profile.Safes = []string{treasury.Hex(), fake.Hex()}
	u.Run(u.S.Update(views.RefreshMsg{}))
	u.Until("the refused one", func() bool { return strings.Contains(view(), fake.Hex()+" is no Safe allot works with:") })
	if v := view(); !strings.Contains(v, "not a canonical Safe 1.3.0 or 1.4.1 singleton") || !strings.Contains(v, "2 of 3 owners sign") {
		t.Errorf("after the refresh:\n%s", ansi.Strip(u.S.View()))
	}
}

// TestSafesRefreshKeepsWhatIsShown: a refresh that fails keeps the Safes
// on show, marked stale; a Safe the node did not answer for keeps its
// last reading; a refusal replaces it at once.
func TestSafesRefreshKeepsWhatIsShown(t *testing.T) {
	now := viewstest.Now
	ctx := &views.Context{Session: &session.Session{}, Now: func() time.Time { return now }, Styles: widget.DefaultStyles()}
	p := newSafesPane(ctx)
	addr := common.HexToAddress("0x12753968b1983d941F183544FAAFb84f81A97C7C")
	good := session.SafeAccount{Address: addr, Info: safe.Info{Address: addr, Kind: safe.Singleton{Version: "1.4.1"}, Threshold: 2,
		Owners: []common.Address{{1}, {2}, {3}}, Nonce: big.NewInt(7)}}
	answer := func(list []session.SafeAccount, err error) {
		t.Helper()
		p.seq, p.loading, p.quiet = p.reqs.Next(), true, true
		if _, ok := p.Update(views.Loaded[[]session.SafeAccount]{Seq: p.seq, Value: list, Err: err}); !ok {
			t.Fatal("the pane did not take its answer")
		}
	}
	view := func() string { return ansi.Strip(strings.Join(p.View(100, nil, common.Address{}, -1, nil), "\n")) }

	answer([]session.SafeAccount{good}, nil)
	if f := p.Freshness(); !f.At.Equal(now) || f.Stale != nil || !strings.Contains(view(), "2 of 3 owners sign · nonce 7") {
		t.Fatalf("the first reading: %+v\n%s", f, view())
	}
	answer(nil, errors.New("the profile's file: permission denied"))
	if f := p.Freshness(); f.Stale == nil || !strings.Contains(view(), "nonce 7") {
		t.Errorf("a failed refresh: %+v\n%s", f, view())
	}
	now = now.Add(time.Minute)
	answer([]session.SafeAccount{{Address: addr, Err: errors.New("dial tcp: connection refused")}}, nil)
	if f := p.Freshness(); f.Stale == nil || !f.At.Equal(viewstest.Now) || !strings.Contains(view(), "nonce 7") || strings.Contains(view(), "could not be read") {
		t.Errorf("a Safe the node did not answer for: %+v\n%s", f, view())
	}
	answer([]session.SafeAccount{{Address: addr, Err: fmt.Errorf("%s: its code is not a Safe proxy's: %w", addr.Hex(), safe.ErrNotSafe)}}, nil)
	if v := view(); strings.Contains(v, "nonce 7") || !strings.Contains(v, addr.Hex()+" is no Safe allot works with:\n    its code is not a Safe proxy's") {
		t.Errorf("a refusal:\n%s", v)
	}
}

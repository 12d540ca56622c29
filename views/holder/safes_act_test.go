package holder

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/views"
	"allot/views/widget"
	"allot/wallet/keystore"
	"allot/wallet/safe"
)

// TestSafeActsSayWhyNot: on the accounts page the cursor goes on to the
// profile's Safes, and s, c and b, which propose as the Safe selected, say
// why they cannot, under the Safe and when pressed: a keystore account
// is no Safe, a Safe no owner's key is unlocked for waits for one, a
// Safe whose owners' keys are all elsewhere cannot be proposed for here,
// and one that is no Safe or could not be read is never acted as.
func TestSafeActsSayWhyNot(t *testing.T) {
	mine := common.HexToAddress("0x3e3Daf419A62d6665b5B6444e071475801B87Ae2")
	info := func(addr common.Address, owners ...common.Address) safe.Info {
		return safe.Info{Address: addr, Kind: safe.Singleton{Version: "1.4.1"}, Threshold: 2, Owners: owners, Nonce: big.NewInt(0)}
	}
	ours, theirs, fake, far := common.Address{0xa1}, common.Address{0xa2}, common.Address{0xa3}, common.Address{0xa4}
	ctx := &views.Context{Session: &session.Session{ConfigPath: "allot.toml"}, Now: time.Now, Styles: widget.DefaultStyles(),
		Clipboard: widget.Clipboard{Out: io.Discard}, Wallet: &session.Wallet{}}
	u := NewUnlock(ctx).(*unlock)
	u.SetSize(120, 60)
	u.loaded, u.accounts = true, []keystore.Account{{Address: mine, Path: "key.json"}}
	u.safes.list = []session.SafeAccount{
		{Address: ours, Info: info(ours, mine, common.Address{2}, common.Address{3})},
		{Address: theirs, Info: info(theirs, common.Address{2}, common.Address{3})},
		{Address: fake, Err: fmt.Errorf("%s: its code is not a Safe proxy's: %w", fake.Hex(), safe.ErrNotSafe)},
		{Address: far, Err: errors.New("dial tcp: connection refused")},
	}
	for i, want := range []string{
		"select a Safe first",
		"unlock an owner's key first",
		"no owner's key in the keystore",
		"no Safe allot works with (why is under it)",
		"it could not be read (why is under it)",
	} {
		if i > 0 {
			u.Update(tea.KeyMsg{Type: tea.KeyDown})
		}
		for _, k := range []string{"s", "c", "b"} {
			cmd := u.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
			msg, _ := cmdMsg(cmd).(views.StatusMsg)
			if !msg.Error || !strings.Contains(msg.Text, want) {
				t.Errorf("row %d, %s: %+v, want a refusal saying %q", i, k, msg, want)
			}
		}
		view := strings.Join(strings.Fields(ansi.Strip(u.View())), " ")
		if i > 0 && !strings.Contains(view, "Propose as this Safe: not now, "+want) {
			t.Errorf("row %d: the hint under the Safe lacks %q:\n%s", i, want, ansi.Strip(u.View()))
		}
	}
	// The cursor stops at the last Safe.
	u.Update(tea.KeyMsg{Type: tea.KeyDown})
	if a, ok := u.selectedSafe(); !ok || a.Address != far {
		t.Errorf("past the last Safe: %v %v", a.Address, ok)
	}

	u.safes.list = nil
	u.cursor = 0
	msg, _ := cmdMsg(u.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s")})).(views.StatusMsg)
	if !strings.Contains(msg.Text, "the profile lists no Safe (allot safe add)") {
		t.Errorf("no Safes: %+v", msg)
	}
	ctx.Session.ConfigPath = "" // the embedded sandbox's own profile
	msg, _ = cmdMsg(u.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})).(views.StatusMsg)
	if !strings.Contains(msg.Text, "the embedded sandbox lists no Safes") {
		t.Errorf("the embedded sandbox: %+v", msg)
	}
}

func cmdMsg(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

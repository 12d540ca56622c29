package holder

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/proposals"
	"allot/views/widget"
)

// Acting as a Safe (docs/custody.md): on the accounts page the cursor
// goes on from the keystore's accounts to the profile's Safes; on a Safe
// whose owner's key is unlocked, s proposes a stake of the Safe and c a
// claim the Safe sends, each reviewed and signed by that owner
// (proposals.NewSafeStake, NewSafeClaim). A Safe that could not be read,
// or is no Safe allot works with, cannot be acted as, and the keys say
// why.

var (
	keySafeStake = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "stake as the Safe"))
	keySafeClaim = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "claim as the Safe"))
)

// selectedSafe is the Safe under the cursor; false on a keystore account.
func (u *unlock) selectedSafe() (session.SafeAccount, bool) {
	i := u.cursor - len(u.accounts)
	if i < 0 || i >= len(u.safes.list) {
		return session.SafeAccount{}, false
	}
	return u.safes.list[i], true
}

// rows is how many rows the cursor moves over: the keystore's accounts,
// then the profile's Safes.
func (u *unlock) rows() int { return len(u.accounts) + len(u.safes.list) }

// safeKeys are the keys that act as the selected Safe.
func (u *unlock) safeKeys() widget.Bindings {
	act := func(open func(*views.Context, session.SafeAccount) views.Screen) func() tea.Cmd {
		return func() tea.Cmd {
			a, _ := u.selectedSafe()
			return views.Navigate(open(u.ctx, a))
		}
	}
	claim := func(ctx *views.Context, a session.SafeAccount) views.Screen {
		return proposals.NewSafeClaim(ctx, a, "")
	}
	return widget.Bindings{
		{Key: keySafeStake, Short: true, Group: "Safe", Run: act(proposals.NewSafeStake), Disabled: u.whyNotActAs,
			Long: "propose a stake of the selected Safe: the unlocked owner's key reviews and signs it first"},
		{Key: keySafeClaim, Short: true, Group: "Safe", Run: act(claim), Disabled: u.whyNotActAs,
			Long: "propose a claim the selected Safe sends, for an allocation: the unlocked owner's key reviews and signs it first"},
	}
}

// whyNotActAs says why the selected Safe cannot be acted as now, "" when
// it can: the unlocked key is one of its owners'.
func (u *unlock) whyNotActAs() string {
	a, ok := u.selectedSafe()
	switch {
	case u.busy:
		return "wait: the keystore is busy"
	case !ok:
		return "select a Safe of the profile first (↓, under the keystore's accounts)"
	case a.Refused():
		return "it is no Safe allot works with: " + sanitize.Line(a.Err.Error())
	case a.Err != nil:
		return "it could not be read: " + sanitize.Line(a.Err.Error())
	}
	if err := u.ctx.Session.Writable(); err != nil {
		return sanitize.Line(err.Error())
	}
	me, _, unlocked := u.ctx.Wallet.Account()
	held := heldKeys(u.accounts)
	mine := false
	for _, o := range a.Info.Owners {
		mine = mine || held[o]
	}
	switch {
	case unlocked && a.Info.IsOwner(me):
		return ""
	case !mine:
		return "no owner's key is in the keystore: import one (allot account import FILE), or an owner proposes on their machine"
	case unlocked:
		return "the unlocked key " + me.Hex() + " is not an owner of this Safe: unlock an owner's key (✓ above: select it, enter)"
	}
	return "unlock an owner's key first (✓ above: select it, enter)"
}

// safeHint is the line under the selected Safe: what s and c do, or why
// they cannot.
func (u *unlock) safeHint(width int) []string {
	if _, ok := u.selectedSafe(); !ok {
		return nil
	}
	if why := u.whyNotActAs(); why != "" {
		return wordWrap("    Propose as this Safe: not now, "+why, width)
	}
	return wordWrap("    s proposes a stake of this Safe · c a claim it sends: you review and sign first, the other owners after", width)
}

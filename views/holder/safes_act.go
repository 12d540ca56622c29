package holder

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/proposals"
	"allot/views/widget"
)

// Acting as a Safe (docs/custody.md): on the accounts page the cursor
// goes on from the keystore's accounts to the profile's Safes; on a Safe
// whose owner's key is unlocked, s proposes a stake of the Safe, c a
// claim the Safe sends and b several acts of it in one Safe transaction,
// each reviewed and signed by that owner (proposals.NewSafeStake,
// NewSafeClaim, NewSafeBatch). A Safe that could not be read,
// or is no Safe allot works with, cannot be acted as, and the keys say
// why.

var (
	keySafeStake = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "propose a stake as the Safe"))
	keySafeClaim = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "propose a claim as the Safe"))
	keySafeBatch = key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "propose a batch as the Safe"))
)

// selectedSafe is the Safe under the cursor; false on a keystore
// account, and while the keystore is read: the keys come first, so the
// row the cursor is on is not known until they are listed.
func (u *unlock) selectedSafe() (session.SafeAccount, bool) {
	i := u.cursor - len(u.accounts)
	if !u.loaded || i < 0 || i >= len(u.safes.list) {
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
		{Key: keySafeStake, Short: true, Run: act(proposals.NewSafeStake), Disabled: u.whyNotActAs},
		{Key: keySafeClaim, Short: true, Run: act(claim), Disabled: u.whyNotActAs},
		{Key: keySafeBatch, Short: true, Run: act(proposals.NewSafeBatch), Disabled: u.whyNotActAs},
	}
}

// whyNotActAs says why the selected Safe cannot be acted as now, "" when
// it can: the unlocked key is one of its owners'. Said briefly: the help
// shows it beside the keys, and the pane says at length what befell a
// Safe that could not be read.
func (u *unlock) whyNotActAs() string {
	a, ok := u.selectedSafe()
	switch {
	case u.busy:
		return "wait: the keystore is busy"
	case !ok && len(u.safes.list) == 0 && u.ctx.Session.SafesEditable() != nil:
		return "the embedded sandbox lists no Safes"
	case !ok && len(u.safes.list) == 0:
		return "the profile lists no Safe (allot safe add)"
	case !ok:
		return "select a Safe first (↓)"
	case a.Refused():
		return "no Safe allot works with (why is under it)"
	case a.Err != nil:
		return "it could not be read (why is under it)"
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
		return "no owner's key in the keystore (allot account import)"
	case unlocked:
		return "the unlocked key is no owner: unlock one (✓)"
	}
	return "unlock an owner's key first (✓ above, enter)"
}

// safeHint is the line under the selected Safe: what s, c and b do, or
// why they cannot.
func (u *unlock) safeHint(width int) []string {
	if _, ok := u.selectedSafe(); !ok {
		return nil
	}
	if why := u.whyNotActAs(); why != "" {
		return wordWrap("    Propose as this Safe: not now, "+why, width)
	}
	return wordWrap("    s proposes a stake of this Safe · c a claim it sends · b several acts in one: you review and sign first, the other owners after", width)
}

// ownedSafesNote tells, after the page closed on an unlock, that the key
// just unlocked owns Safes of the profile and where they are acted as:
// the page closes back to where u was pressed (a proposal to sign, say),
// so the way back to the Safes is said, not taken.
func (u *unlock) ownedSafesNote(addr common.Address) string {
	var owned []common.Address
	for _, a := range u.safes.list {
		if a.Err == nil && a.Info.IsOwner(addr) {
			owned = append(owned, a.Address)
		}
	}
	switch len(owned) {
	case 0:
		return ""
	case 1:
		return ", owner of the Safe " + short(owned[0]) + " (u, ↓ to it)"
	}
	return fmt.Sprintf(", owner of %d Safes of the profile (u, ↓ to them)", len(owned))
}

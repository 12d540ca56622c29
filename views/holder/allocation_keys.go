package holder

import (
	"github.com/ethereum/go-ethereum/common"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/proposals"
	"allot/views/widget"
	"allot/wallet"
)

// key gives msg to the screen's bindings; a key none takes edits the id
// while the field is focused.
func (a *allocation) key(msg tea.KeyMsg) tea.Cmd {
	editing := a.input.Focused()
	cmd, handled := a.bindings().Dispatch(msg)
	if handled || !editing {
		return cmd
	}
	if a.replace && msg.Type == tea.KeyRunes {
		a.input.SetValue("")
	}
	// Any other key (a backspace, the cursor moved) edits the id shown.
	a.replace = false
	a.input, cmd = a.input.Update(msg)
	return cmd
}

// bindings are the screen's keys as it stands, which its dispatch, the
// footer and the help read: the id field's while it is edited, the
// allocation's once one is shown, the ids offered to pick from before.
func (a *allocation) bindings() widget.Bindings {
	edit := widget.Binding{Key: keyEditID, Short: true, Run: a.edit}
	renew := widget.Binding{Key: keyNewLookup, Short: true, Run: func() tea.Cmd { a.input.SetValue(""); return a.edit() }}
	switch {
	case a.input.Focused():
		prev := widget.Binding{Key: keyFillPrev, Run: func() tea.Cmd { a.fill(-1); return nil }}
		next := widget.Binding{Key: keyFillNext, Run: func() tea.Cmd { a.fill(1); return nil }}
		return widget.Bindings{
			{Key: keyLookUp, Short: true, Run: func() tea.Cmd { return a.lookup(a.input.Value()) }},
			prev, next, widget.Names("↑/↓", "pick", prev, next),
			{Key: keyStopEdit, Short: true, Run: a.stopEditing},
		}
	case a.result != nil:
		return a.resultKeys(edit, renew)
	}
	// No result: the offered ids are a list to pick from.
	prev := widget.Binding{Key: keyPickPrev, Run: func() tea.Cmd { a.move(-1); return nil }}
	next := widget.Binding{Key: keyPickNext, Run: func() tea.Cmd { a.move(1); return nil }}
	look := widget.Binding{Key: keyLookUp, Run: func() tea.Cmd {
		if picks := a.picks(); a.pick >= 0 && a.pick < len(picks) {
			return a.lookup(picks[a.pick])
		}
		return a.edit()
	}}
	if len(a.picks()) == 0 {
		look.Key.SetHelp("enter", "type an id")
		return widget.Bindings{edit, renew, look}
	}
	return widget.Bindings{edit, prev, next, look, widget.Names("↑/↓ enter", "look one up", prev, next, look), renew}
}

// resultKeys are the keys of an allocation shown: claim it (not in a
// read-only session), follow it, look up another, scroll its details and
// its history.
func (a *allocation) resultKeys(edit, renew widget.Binding) widget.Bindings {
	follow := keyFollow
	if a.following {
		follow = keyUnfollow
	}
	idle := func(run func() tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if a.busy {
				return nil
			}
			return run()
		}
	}
	writable := func() string {
		if err := a.ctx.Session.Writable(); err != nil {
			return err.Error()
		}
		return ""
	}
	bs := widget.Bindings{
		{Key: keyClaim, Short: true, Run: idle(a.claim), Disabled: writable},
		// A Safe of the profile sends the claim: one of its owners, the
		// unlocked key, proposes it (docs/custody.md).
		{Key: keySafeClaimOf, Run: idle(func() tea.Cmd { return views.Navigate(proposals.NewSafeClaimFor(a.ctx, a.result.Proof.ID)) }), Disabled: writable},
		{Key: keyTransfer, Run: idle(a.transfer), Disabled: a.transferBar},
		{Key: follow, Short: true, Run: idle(func() tea.Cmd { return setFollowed(a.ctx, a, a.looking, !a.following) })},
		edit, renew,
	}
	bs = append(bs, a.detail.Bindings().InGroup("").InFooter()...)
	return append(bs, a.timeline.bindings()...)
}

// claim opens the claim of the allocation shown.
func (a *allocation) claim() tea.Cmd {
	claimable, recipient := "", common.Address{}
	if c := a.result.Claimable(); c != nil {
		claimable = wallet.FormatUnits(c)
	}
	if v := a.result; v.Args != nil && v.Standing != nil {
		recipient = v.Standing.Recipient(v.Args.Allocation.OriginalBeneficiary)
	}
	return views.Navigate(NewClaim(a.ctx, a.result.Proof.ID, claimable, recipient, a.result.ClaimOutlook(a.count.unit), a.count.unit))
}

// stopEditing leaves the id field. The field names the allocation on
// show (or being looked up), not an id half typed over it.
func (a *allocation) stopEditing() tea.Cmd {
	a.input.Blur()
	if a.busy || a.result != nil {
		a.input.SetValue(a.looking)
	}
	return nil
}

// fill puts the id delta away from the one picked in the field.
func (a *allocation) fill(delta int) {
	if a.move(delta) {
		a.input.SetValue(a.picks()[a.pick])
		a.input.CursorEnd()
		a.replace = true
	}
}

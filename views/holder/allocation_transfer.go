package holder

import (
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/wallet"
)

// transferBar says why the allocation on show cannot be transferred from
// the dashboard (docs/deployment.md D18), "" when the unlocked key may:
// the leaf must let its holder transfer it, and only the allocation's
// withdrawal address now may send it, whoever the leaf named (one
// transferred away from the key is no longer its to give). A revoked or
// cancelled allocation may still be transferred, as the vester allows:
// the review says what is left of it. A Safe's transfer is a proposal,
// made by the command line.
func (a *allocation) transferBar() string {
	if err := a.ctx.Session.Writable(); err != nil {
		return err.Error()
	}
	v := a.result
	switch {
	case v.Outcome() == wallet.Fail:
		return "the allocation's proof did not verify: nothing of it is signed"
	case v.Args == nil || v.Standing == nil:
		return "the allocation's record on the vester was not read: whose it is now is unknown"
	}
	if bar := wallet.LeafTransferBar(v.Args.Allocation); bar != "" {
		return bar
	}
	current := v.Standing.Recipient(v.Args.Allocation.OriginalBeneficiary)
	if a.ctx.Session.Profile.ListsSafe(current) {
		// Which Safe is on the screen (Tokens go to): the line keeps to
		// the width of a status line, the command whole.
		return "its tokens go to a Safe of this profile: propose it with allot transfer ID --to ADDR --account SAFE --owner KEY"
	}
	signer, _, ok := a.ctx.Wallet.Account()
	if !ok {
		return "no key is unlocked: unlock " + current.Hex() + ", where its tokens go now (u)"
	}
	return wallet.HolderTransferBar(current, signer)
}

// transfer opens the transfer of the allocation on show.
func (a *allocation) transfer() tea.Cmd {
	v := a.result
	current := v.Standing.Recipient(v.Args.Allocation.OriginalBeneficiary)
	return views.Navigate(NewTransfer(a.ctx, a.looking, current, v.Standing.Vester))
}

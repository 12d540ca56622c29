package holder

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/views"
	"allot/views/proposals"
	"allot/wallet"
)

// transferBar says why the allocation on show cannot be transferred from
// the dashboard (docs/deployment.md D18), "" when the unlocked key may:
// the leaf must let its holder transfer it, and only the allocation's
// withdrawal address now may send it, whoever the leaf named (one
// transferred away from the key is no longer its to give). A revoked or
// cancelled allocation may still be transferred, as the vester allows:
// the review says what is left of it. When a Safe of the profile holds
// it, the transfer is that Safe's, proposed by an owner (safeTransferBar).
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
	if sa := a.holderSafe; sa != nil && sa.Address == current {
		return a.safeTransferBar(sa)
	}
	signer, _, ok := a.ctx.Wallet.Account()
	if !ok {
		return "no key is unlocked: unlock " + current.Hex() + ", where its tokens go now (u)"
	}
	return wallet.HolderTransferBar(current, signer)
}

// safeTransferBar says why sa, the Safe of the profile the allocation
// pays now, cannot propose its transfer from here, "" when the unlocked
// key is one of its owners'. Said in the width of a status line.
func (a *allocation) safeTransferBar(sa *session.SafeAccount) string {
	switch {
	case sa.Refused():
		return "it pays " + sa.Address.Hex() + ": no Safe allot works with (allot safe show SAFE)"
	case sa.Err != nil:
		return "the Safe that holds it could not be read from the node: the next block tries again"
	}
	me, _, ok := a.ctx.Wallet.Account()
	switch {
	case !ok:
		return "a Safe holds it: unlock one of its owners' keys to propose its transfer (u)"
	case !sa.Info.IsOwner(me):
		return "a Safe holds it and the unlocked key is none of its owners: unlock an owner's key (u)"
	}
	return ""
}

// holderSafe reads the Safe of the profile that v pays now, for its
// transfer to be proposed by an owner; nil when v pays none. The profile
// is read as its file says now, with the allocation (at its lookup and
// every refresh): a Safe another allot added or removed since is known
// for what it is. What befell the Safe's read is the account's Err.
func holderSafe(c context.Context, s *session.Session, v *wallet.Verification) *session.SafeAccount {
	if v == nil || v.Args == nil || v.Standing == nil {
		return nil
	}
	current := v.Standing.Recipient(v.Args.Allocation.OriginalBeneficiary)
	listed, err := s.ListsSafe(current)
	if err != nil {
		listed = s.Profile.ListsSafe(current) // the file unread: as the profile was opened
	}
	if !listed {
		return nil
	}
	info, err := s.ReadSafe(c, current)
	return &session.SafeAccount{Address: current, Info: info, Err: err}
}

// transfer opens the transfer of the allocation on show: the key's, or
// the proposal of the Safe that holds it.
func (a *allocation) transfer() tea.Cmd {
	v := a.result
	current := v.Standing.Recipient(v.Args.Allocation.OriginalBeneficiary)
	if sa := a.holderSafe; sa != nil && sa.Address == current {
		return views.Navigate(proposals.NewSafeTransfer(a.ctx, *sa, a.looking, v.Standing.Vester))
	}
	return views.Navigate(NewTransfer(a.ctx, a.looking, current, v.Standing.Vester))
}

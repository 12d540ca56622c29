package proposal

import (
	"fmt"

	"allot/wallet/safe"
)

// State is where a proposal stands against its Safe as the chain holds it.
type State string

const (
	// Missing: fewer signatures than the threshold.
	Missing State = "signatures missing"
	// Ready: enough signatures to execute it.
	Ready State = "ready"
	// Executed: allot saw the transaction that executed it mined.
	Executed State = "executed"
	// Stale: the Safe's nonce moved past the proposal's, so another
	// transaction took its place; it can never be executed.
	Stale State = "stale nonce"
	// Changed: the Safe's owners or threshold are not what they were
	// when it was proposed.
	Changed State = "owners or threshold changed"
)

// StateAt says where the proposal stands for the Safe info, and why, in
// one line.
func (p *Proposal) StateAt(info safe.Info) (State, string) {
	if p.Executed != ([32]byte{}) {
		return Executed, "executed by transaction " + p.Executed.Hex()
	}
	if info.Nonce != nil && info.Nonce.Cmp(p.Tx.Nonce) != 0 {
		return Stale, nonceMoved(info, p)
	}
	if changed := p.changed(info); changed != "" {
		return Changed, changed
	}
	if n := uint64(len(p.Signatures)); n < p.Threshold {
		return Missing, fmt.Sprintf("%d of %d signatures: %d more needed", n, p.Threshold, p.Threshold-n)
	}
	return Ready, fmt.Sprintf("%d of %d signatures: any account may execute it", len(p.Signatures), p.Threshold)
}

// Executable says why the proposal cannot be executed on the Safe info as
// it is now, or nil: the Safe's nonce must still be the proposal's, its
// owners and threshold what they were, every signature a current owner's,
// and at least the threshold of them.
func (p *Proposal) Executable(info safe.Info) error {
	if info.Address != p.Safe {
		return fmt.Errorf("the proposal is for the Safe %s, not %s", p.Safe.Hex(), info.Address.Hex())
	}
	if info.Nonce == nil || info.Nonce.Cmp(p.Tx.Nonce) != 0 {
		return fmt.Errorf("%s; it cannot be executed, propose it again", nonceMoved(info, p))
	}
	if changed := p.changed(info); changed != "" {
		return fmt.Errorf("%s since it was proposed: its owners must review it again, propose it again", changed)
	}
	for _, s := range p.Signatures {
		if !info.IsOwner(s.Owner) {
			return fmt.Errorf("%s signed it and is not an owner of the Safe now", s.Owner.Hex())
		}
	}
	if n := uint64(len(p.Signatures)); n < info.Threshold {
		return fmt.Errorf("%d of %d signatures: the Safe needs %d more", n, info.Threshold, info.Threshold-n)
	}
	return nil
}

// changed says what of the Safe's owners and threshold is not as
// proposed, or "".
func (p *Proposal) changed(info safe.Info) string {
	if info.Threshold != p.Threshold {
		return fmt.Sprintf("the Safe's threshold is %d, it was %d", info.Threshold, p.Threshold)
	}
	if len(info.Owners) != len(p.Owners) {
		return fmt.Sprintf("the Safe has %d owners, it had %d", len(info.Owners), len(p.Owners))
	}
	for _, o := range p.Owners {
		if !info.IsOwner(o) {
			return "the Safe's owners changed: " + o.Hex() + " is no owner now"
		}
	}
	return ""
}

// nonceMoved says how the Safe's nonce differs from the proposal's.
func nonceMoved(info safe.Info, p *Proposal) string {
	if info.Nonce != nil && info.Nonce.Cmp(p.Tx.Nonce) < 0 {
		return fmt.Sprintf("the proposal is at nonce %s, ahead of the Safe's %s: the Safe executes its nonces in order", p.Tx.Nonce, info.Nonce)
	}
	return fmt.Sprintf("the Safe's nonce is %v, the proposal's %s: the Safe executed another transaction at that nonce, or this one elsewhere", info.Nonce, p.Tx.Nonce)
}

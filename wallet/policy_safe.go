package wallet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// The signing policy of a Safe transaction (D17, D19). An owner's
// signature of a Safe transaction moves the Safe's funds as surely as a
// key's signature moves the key's: every call the Safe makes is held to
// the policy of a key whose address is the Safe's (pins, amounts,
// recipients, fees), and the Safe transaction that carries them may do
// nothing else. A delegatecall runs another contract's code as the Safe,
// with everything it holds, so it goes only to the MultiSendCallOnly
// named for it, whose code must be a canonical MultiSendCallOnly's, and
// only to make exactly the reviewed calls.

// SafePolicy is what a Safe transaction must match.
type SafePolicy struct {
	ChainID uint64
	// Safe is the Safe as the chain holds it now (safe.Read, which
	// refuses a proxy of anything but a canonical Safe singleton).
	Safe safe.Info
	// MultiSend is the MultiSendCallOnly a batch is made through; its
	// code must hash to a canonical MultiSendCallOnly's, pinned in
	// wallet/safe like the canonical singletons.
	MultiSend common.Address
	// Inner is the signing policy of the Safe's calls, as of a key whose
	// address is the Safe's: CheckStake's or CheckClaim's for the act.
	Inner func(ctx context.Context, pins Pins, calls []Call) (*Approval, error)
	Pins  Pins
}

// SafeApproval is a Safe transaction the policy allows for an owner to
// sign, and what the policy established, for the review.
type SafeApproval struct {
	Facts []Line
	// Calls are the Safe's calls as the key's policy approved them.
	Calls []Call
	Tx    safe.Tx
}

// InnerCalls are calls as a Safe makes them, from safe on chainID, for the
// key's policy.
func InnerCalls(chainID uint64, from common.Address, calls []safe.InnerCall) []Call {
	out := make([]Call, len(calls))
	for i, c := range calls {
		v := new(big.Int)
		if c.Value != nil {
			v.Set(c.Value)
		}
		out[i] = Call{ChainID: chainID, From: from, To: c.To, Data: bytes.Clone(c.Data), Value: v}
	}
	return out
}

// CheckSafeTx applies the signing policy to tx, the Safe transaction that
// makes calls:
//   - the Safe is a canonical Safe 1.3.0 or 1.4.1 (its singleton's code);
//   - tx is at the Safe's nonce, and refunds no gas from the Safe's funds;
//   - one call is made as a call, exactly as reviewed; several only by a
//     delegatecall of multiSend to p.MultiSend, whose code is a canonical
//     MultiSendCallOnly's, packing exactly the reviewed calls; no other
//     delegatecall;
//   - every call passes the policy of a key whose address is the Safe's
//     (p.Inner).
//
// Anything else is a *RefusedError with every reason found.
func CheckSafeTx(ctx context.Context, node Node, p SafePolicy, calls []safe.InnerCall, tx safe.Tx) (*SafeApproval, error) {
	refused := &RefusedError{Subject: "Safe transaction of " + p.Safe.Address.Hex()}
	a := &SafeApproval{Tx: tx}
	if _, ok := safe.CanonicalSingleton(p.Safe.SingletonCodeHash); !ok {
		refused.refuse("%s is not a Safe allot signs for: its singleton %s is no canonical Safe 1.3.0 or 1.4.1", p.Safe.Address.Hex(), p.Safe.Singleton.Hex())
	} else {
		a.Facts = append(a.Facts, Line{"Safe", fmt.Sprintf("%s, a %s: %d of %d owners sign (read from the chain)",
			p.Safe.Address.Hex(), p.Safe.Kind, p.Safe.Threshold, len(p.Safe.Owners))})
	}
	if p.Safe.Nonce == nil || tx.Nonce == nil || tx.Nonce.Cmp(p.Safe.Nonce) != 0 {
		refused.refuse("the Safe transaction is at nonce %v; the Safe's next is %v", tx.Nonce, p.Safe.Nonce)
	}
	if tx.Refunds() {
		refused.refuse("the Safe transaction refunds gas from the Safe's funds (safeTxGas, baseGas, gasPrice, gasToken or refundReceiver set); allot signs only transactions whose sender pays its gas")
	}
	checkCarrier(ctx, node, p, calls, tx, refused, a)
	inner, err := p.Inner(ctx, p.Pins, InnerCalls(p.ChainID, p.Safe.Address, calls))
	var r *RefusedError
	switch {
	case errors.As(err, &r):
		for _, reason := range r.Reasons {
			refused.refuse("the Safe's %s", reason)
		}
		refused.Unchecked = refused.Unchecked || r.Unchecked
		refused.Unpinned = append(refused.Unpinned, r.Unpinned...)
	case err != nil:
		return nil, err
	default:
		a.Facts = append(a.Facts, inner.Facts...)
		a.Calls = inner.Calls()
	}
	if err := refused.err(); err != nil {
		return nil, err
	}
	return a, nil
}

// checkCarrier holds tx to the one Safe transaction that makes calls.
func checkCarrier(ctx context.Context, node Node, p SafePolicy, calls []safe.InnerCall, tx safe.Tx, refused *RefusedError, a *SafeApproval) {
	if tx.Operation == safe.DelegateCall {
		if !checkMultiSend(ctx, node, p, tx.To, refused, a) {
			return
		}
	} else if tx.Operation != safe.Call {
		refused.refuse("the Safe transaction's operation is %d, neither a call nor a delegatecall", tx.Operation)
		return
	}
	want, err := safe.Carry(calls, p.MultiSend, tx.Nonce)
	if err != nil {
		refused.refuse("the reviewed calls cannot be made: %v", err)
		return
	}
	if !tx.Equal(want) {
		refused.refuse("the Safe transaction (a %s to %s, %d bytes of data) does not make exactly the calls reviewed: a call was changed, added or left out", tx.Operation, tx.To.Hex(), len(tx.Data))
	}
}

// checkMultiSend holds a delegatecall's target to p.MultiSend and its code
// to a canonical MultiSendCallOnly's.
func checkMultiSend(ctx context.Context, node Node, p SafePolicy, to common.Address, refused *RefusedError, a *SafeApproval) bool {
	if p.MultiSend == (common.Address{}) || to != p.MultiSend {
		refused.refuse("the Safe transaction delegatecalls %s: a delegatecall runs that contract's code as the Safe, with all it holds; allot makes one only to the MultiSendCallOnly %s", to.Hex(), p.MultiSend.Hex())
		return false
	}
	hash, err := CodeHash(ctx, node, to)
	switch {
	case errors.Is(err, ErrNoContract):
		refused.refuse("the MultiSendCallOnly %s has no code on the chain", to.Hex())
		return false
	case err != nil:
		refused.unchecked("the code of the MultiSendCallOnly %s could not be read: %v", to.Hex(), err)
		return false
	}
	version, ok := safe.CanonicalMultiSendCallOnly(hash)
	if !ok {
		refused.refuse("%s's code (hash %s) is not a canonical MultiSendCallOnly 1.3.0 or 1.4.1: a delegatecall to it could do anything with the Safe's funds", to.Hex(), hash.Hex())
		return false
	}
	a.Facts = append(a.Facts, Line{"MultiSendCallOnly", fmt.Sprintf("%s, the canonical MultiSendCallOnly %s (its code hash %s): it makes each call of the batch, and only calls", to.Hex(), version, hash.Hex())})
	return true
}

// ExecPolicy is what the execution of a proposal must match: the Safe
// transaction's policy, and the account that sends it.
type ExecPolicy struct {
	SafePolicy
	Executor common.Address
}

// CheckSafeExec applies the signing policy to calls, which must be
// exactly the one execTransaction of prop, from p.Executor to the Safe,
// sending nothing: the proposal is executable on the Safe as it is now
// (its nonce, owners and threshold as proposed, enough owners'
// signatures of its hash), for the profile's chain, and its Safe
// transaction passes CheckSafeTx again.
func CheckSafeExec(ctx context.Context, node Node, p ExecPolicy, prop *proposal.Proposal, calls []Call) (*Approval, error) {
	refused := &RefusedError{Subject: "execution of Safe transaction " + prop.Hashes.SafeTx.Hex()}
	if prop.ChainID != p.ChainID {
		refused.refuse("the proposal is for chain %d; the profile's chain is %d", prop.ChainID, p.ChainID)
	}
	if err := prop.Check(); err != nil {
		refused.refuse("%v", err)
	}
	if err := prop.Executable(p.Safe); err != nil {
		refused.refuse("%v", err)
	}
	a := &Approval{Subject: refused.Subject}
	sa, err := CheckSafeTx(ctx, node, p.SafePolicy, prop.Calls, prop.Tx)
	var r *RefusedError
	switch {
	case errors.As(err, &r):
		refused.Reasons = append(refused.Reasons, r.Reasons...)
		refused.Unchecked = refused.Unchecked || r.Unchecked
	case err != nil:
		return nil, err
	default:
		a.Facts = sa.Facts
	}
	data, err := safe.ExecData(prop.Tx, prop.Packed())
	if err != nil {
		return nil, err
	}
	want := Call{ChainID: p.ChainID, From: p.Executor, To: prop.Safe, Data: data, Value: new(big.Int)}
	calls = withValues(calls)
	if len(calls) != 1 || calls[0].From != want.From || calls[0].To != want.To || !bytes.Equal(calls[0].Data, want.Data) ||
		calls[0].Value.Sign() != 0 || (calls[0].ChainID != 0 && calls[0].ChainID != p.ChainID) {
		refused.refuse("the transaction to sign is not the execTransaction of this proposal by %s", p.Executor.Hex())
	}
	if err := refused.err(); err != nil {
		return nil, err
	}
	a.Facts = append(a.Facts, Line{"signatures", fmt.Sprintf("%d of %d owners signed safeTxHash %s (each recovered from its signature)",
		len(prop.Signatures), p.Safe.Threshold, prop.Hashes.SafeTx.Hex())})
	a.calls = []Call{want}
	return a, nil
}

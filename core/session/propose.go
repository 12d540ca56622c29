package session

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// The acts of a Safe an owner proposes (docs/custody.md): a stake (an
// approve of exactly the amount first when the Safe's allowance is short,
// both in one MultiSendCallOnly call), a claim the Safe sends and the
// transfer of an allocation the Safe holds. The CLI
// (`allot stake|claim|transfer --account SAFE --owner KEY`) and the dashboard build
// and review them here, one code path: each returns the proposal unsigned
// with what its review shows, and the owner signs that proposal, the one
// the review showed (SignSafeTx), or nothing.

// SafeAct is a Safe's act on its way to a proposal: the Safe as the chain
// holds it, the act and the calls the Safe makes for it.
type SafeAct struct {
	Safe  safe.Info
	Act   proposal.Act
	Calls []safe.InnerCall
	// MultiSend is the MultiSendCallOnly several calls go through; zero
	// is the canonical one of the Safe's version, as Safe{Wallet} uses.
	MultiSend common.Address
}

// SafeReview is a proposal not signed yet and what its review shows: each
// call the Safe makes decoded, and the signing policy's verdict on the
// Safe transaction.
type SafeReview struct {
	Proposal *proposal.Proposal
	Safe     safe.Info
	Decoded  []*wallet.Summary
	// Approval is what the signing policy established, nil when refused.
	Approval *wallet.SafeApproval
	// Refusal is the policy's refusal (a *wallet.RefusedError), journaled
	// already: nothing may be signed, and the review says why.
	Refusal error
}

// ReadSafe reads the Safe at addr from the profile's node, refusing what
// is no canonical Safe: the Safe an owner acts as, read as the act is
// built, its nonce the one the proposal takes.
func (s *Session) ReadSafe(ctx context.Context, addr common.Address) (safe.Info, error) {
	node, err := s.SafeNode()
	if err != nil {
		return safe.Info{}, err
	}
	info, err := safe.Read(ctx, node, addr)
	if errors.Is(err, safe.ErrNotSafe) || errors.Is(err, safe.ErrBadAnswer) {
		return info, fmt.Errorf("%s is no Safe allot works with: %w", addr.Hex(), err)
	}
	if err != nil {
		return info, fmt.Errorf("read the Safe %s: %w", addr.Hex(), err)
	}
	return info, nil
}

// SafeStakeCalls are the calls of a stake of amount (base units) in pool
// by the Safe safeAddr: an approve of exactly the amount first when its
// allowance is short, then the stake in the pool's staking contract as the
// token's contract list names it.
func (s *Session) SafeStakeCalls(ctx context.Context, safeAddr common.Address, pool api.Pool, amount *big.Int) ([]wallet.Call, error) {
	pins, err := s.SigningPins(ctx)
	if err != nil {
		return nil, err
	}
	sp, err := s.StakePolicy(ctx, pins, pool, safeAddr, amount)
	if err != nil {
		return nil, err
	}
	if sp.Pool == (common.Address{}) {
		return nil, fmt.Errorf("pool %s: the token's contract list names no staking contract for it", pool.ID)
	}
	plan, err := wallet.SafeStake(ctx, s.Chain, s.Profile.ChainID, safeAddr, sp.Pool, amount)
	if err != nil {
		return nil, err
	}
	return plan.Calls(), nil
}

// SafeClaimCalls is the claim of allocation id sent by the Safe req names:
// the service's, journaled by rec, or where the service refuses that
// sender allot's own from the proof and the chain's fee (asked: base
// units, nil for all that is claimable).
func (s *Session) SafeClaimCalls(ctx context.Context, rec *act.Recorder, id string, req api.ClaimRequest, asked *big.Int) ([]wallet.Call, error) {
	res, err := rec.RequestClaim(ctx, s.API, id, req)
	switch {
	case err != nil && SenderRefused(err):
		return s.SelfBuiltClaim(ctx, id, common.HexToAddress(req.Sender), asked)
	case err != nil:
		return nil, err
	}
	return wallet.ClaimCalls(res)
}

// InnerOf are calls as the Safe from makes them, refusing one to be sent
// by anyone but the Safe or on another chain: the proposal keeps only
// what the Safe's transaction carries.
func InnerOf(calls []wallet.Call, from common.Address, chainID uint64) ([]safe.InnerCall, error) {
	out := make([]safe.InnerCall, len(calls))
	for i, c := range calls {
		if c.From != from || (c.ChainID != 0 && c.ChainID != chainID) {
			return nil, fmt.Errorf("%w: call %d is to be sent by %s on chain %d, not by the Safe %s on chain %d",
				wallet.ErrRefused, i+1, c.From.Hex(), c.ChainID, from.Hex(), chainID)
		}
		out[i] = safe.InnerCall{To: c.To, Value: c.Value, Data: c.Data}
	}
	return out, nil
}

// ProposeStake is the Safe info's stake of amount (base units) in pool,
// proposed by owner and reviewed (ProposeSafeAct).
func (s *Session) ProposeStake(ctx context.Context, rec *act.Recorder, info safe.Info, owner common.Address, pool api.Pool, amount *big.Int, multiSend common.Address) (*SafeReview, error) {
	calls, err := s.SafeStakeCalls(ctx, info.Address, pool, amount)
	if err != nil {
		return nil, err
	}
	inner, err := InnerOf(calls, info.Address, s.Profile.ChainID)
	if err != nil {
		return nil, err
	}
	a := SafeAct{Safe: info, Act: proposal.Act{Op: proposal.OpStake, Subject: pool.ID, Amount: amount}, Calls: inner, MultiSend: multiSend}
	return s.ProposeSafeAct(ctx, rec, a, owner)
}

// ProposeClaim is the claim of allocation id sent by the Safe info (req
// names it the sender; asked in base units, nil for all that is
// claimable), proposed by owner and reviewed (ProposeSafeAct).
func (s *Session) ProposeClaim(ctx context.Context, rec *act.Recorder, info safe.Info, owner common.Address, id string, req api.ClaimRequest, asked *big.Int, multiSend common.Address) (*SafeReview, error) {
	if !common.IsHexAddress(req.Sender) || common.HexToAddress(req.Sender) != info.Address {
		return nil, fmt.Errorf("the claim's sender %q is not the Safe %s", req.Sender, info.Address.Hex())
	}
	calls, err := s.SafeClaimCalls(ctx, rec, id, req, asked)
	if err != nil {
		return nil, err
	}
	inner, err := InnerOf(calls, info.Address, s.Profile.ChainID)
	if err != nil {
		return nil, err
	}
	a := SafeAct{Safe: info, Act: proposal.Act{Op: proposal.OpClaim, Subject: id, Amount: asked}, Calls: inner, MultiSend: multiSend}
	return s.ProposeSafeAct(ctx, rec, a, owner)
}

// ProposeTransfer is the transfer of allocation id to the withdrawal
// address to (docs/deployment.md D18), sent by the Safe info that holds
// it now, built from the allocation's proof as for a key (TransferCall),
// proposed by owner and reviewed (ProposeSafeAct): the CLI's `allot
// transfer ID --to ADDR --account SAFE --owner KEY` and the dashboard's t
// on an allocation a Safe holds.
func (s *Session) ProposeTransfer(ctx context.Context, rec *act.Recorder, info safe.Info, owner common.Address, id string, to, multiSend common.Address) (*SafeReview, error) {
	calls, err := s.TransferCall(ctx, id, info.Address, to)
	if err != nil {
		return nil, err
	}
	inner, err := InnerOf(calls, info.Address, s.Profile.ChainID)
	if err != nil {
		return nil, err
	}
	a := SafeAct{Safe: info, Act: proposal.Act{Op: proposal.OpTransfer, Subject: id, To: to}, Calls: inner, MultiSend: multiSend}
	return s.ProposeSafeAct(ctx, rec, a, owner)
}

// ProposeSafeAct makes a's proposal, unsigned, for owner to sign once
// its review (ReviewSafeTx) is shown.
func (s *Session) ProposeSafeAct(ctx context.Context, rec *act.Recorder, a SafeAct, owner common.Address) (*SafeReview, error) {
	if !a.Safe.IsOwner(owner) {
		return nil, fmt.Errorf("%s is not an owner of the Safe %s", owner.Hex(), a.Safe.Address.Hex())
	}
	return s.ReviewSafeAct(ctx, rec, a)
}

// ReviewSafeAct makes a's proposal, unsigned, and its review: what the
// dashboard's :safe import saves for the owners to sign from the
// proposal page.
func (s *Session) ReviewSafeAct(ctx context.Context, rec *act.Recorder, a SafeAct) (*SafeReview, error) {
	if a.MultiSend == (common.Address{}) {
		a.MultiSend = safe.MultiSendCallOnlyOf(a.Safe.Version)
	}
	p, err := proposal.New(s.Profile.ChainID, a.Safe, a.Act, a.Calls, a.MultiSend)
	if err != nil {
		return nil, err
	}
	return s.ReviewSafeTx(ctx, rec, a.Safe, p)
}

// ReviewSafeTx is the review of proposal p of the Safe info (as read now)
// that an owner's signature waits for: each call the Safe makes decoded,
// and the signing policy's check of every inner call and of the Safe
// transaction (CheckSafeTx). A refusal is journaled by rec and is the
// review's Refusal; the error is for what kept the review from being
// made.
func (s *Session) ReviewSafeTx(ctx context.Context, rec *act.Recorder, info safe.Info, p *proposal.Proposal) (*SafeReview, error) {
	decoded, err := s.DecodeSafeCalls(ctx, info.Address, p.Calls)
	if err != nil {
		return nil, err
	}
	r := &SafeReview{Proposal: p, Safe: info, Decoded: decoded}
	r.Approval, err = s.CheckSafeTx(ctx, info, p.Act, p.Calls, p.MultiSend, p.Tx)
	var refused *wallet.RefusedError
	switch {
	case errors.As(err, &refused):
		r.Approval, r.Refusal = nil, rec.Refused("safe "+p.Act.Op, p.Hashes.SafeTx.Hex(), err)
	case err != nil:
		return nil, err
	}
	return r, nil
}

package session

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// BatchAct is one act of a batch of a Safe's acts: a claim, a stake or a
// transfer, built as the act alone builds it. The CLI's `safe batch` and
// the dashboard share it so that a batch means the same everywhere.
type BatchAct struct {
	Op      string         // proposal.OpClaim, OpStake or OpTransfer
	Subject string         // the allocation or the pool
	Amount  *big.Int       // a stake's, base units
	To      common.Address // a transfer's new withdrawal address
}

// String names the act as `safe batch` takes it, without the flag's dashes.
func (a BatchAct) String() string {
	if a.Op == proposal.OpTransfer {
		return fmt.Sprintf("transfer %s=%s", a.Subject, a.To.Hex())
	}
	if a.Op == proposal.OpStake {
		return fmt.Sprintf("stake %s=%s", a.Subject, wallet.FormatTokens(a.Amount))
	}
	return "claim " + a.Subject
}

// ParseBatchAct checks one act: v is the allocation ID of a claim,
// POOL_ID=AMOUNT of a stake, ID=ADDR of a transfer.
func ParseBatchAct(op, v string) (BatchAct, error) {
	a := BatchAct{Op: op, Subject: v}
	var rest string
	if op != proposal.OpClaim {
		var ok bool
		if a.Subject, rest, ok = strings.Cut(v, "="); !ok {
			return BatchAct{}, fmt.Errorf("%q: want ID=%s", sanitize.Truncate(v, 80), map[string]string{proposal.OpStake: "AMOUNT", proposal.OpTransfer: "ADDR"}[op])
		}
	}
	if err := api.CheckUUID("id", a.Subject); err != nil {
		return BatchAct{}, err
	}
	switch op {
	case proposal.OpStake:
		amount, err := api.ParseTokenAmount(rest)
		if err != nil {
			return BatchAct{}, err
		}
		if a.Amount, err = api.BaseUnits(amount.Decimal); err != nil {
			return BatchAct{}, err
		}
	case proposal.OpTransfer:
		if err := api.CheckAddress("ADDR", rest); err != nil {
			return BatchAct{}, err
		}
		a.To = common.HexToAddress(rest)
	}
	return a, nil
}

// BatchActCalls is the act's calls with the Safe as their sender.
func (s *Session) BatchActCalls(ctx context.Context, rec *act.Recorder, safeAddr common.Address, a BatchAct) ([]wallet.Call, error) {
	switch a.Op {
	case proposal.OpStake:
		pool, err := s.Pool(ctx, a.Subject)
		if err != nil {
			return nil, err
		}
		return s.SafeStakeCalls(ctx, safeAddr, pool, a.Amount)
	case proposal.OpTransfer:
		return s.TransferCall(ctx, a.Subject, safeAddr, a.To)
	}
	return s.SafeClaimCalls(ctx, rec, a.Subject, api.ClaimRequest{Sender: safeAddr.Hex()}, nil)
}

// BatchActError is a batch's act that could not be built: which one (N,
// from 1, in the batch's order), and why. The batch is not proposed.
type BatchActError struct {
	N   int
	Act BatchAct
	Err error
}

func (e *BatchActError) Error() string { return fmt.Sprintf("%s: %v", e.Act, e.Err) }
func (e *BatchActError) Unwrap() error { return e.Err }

// ProposeBatch is the Safe info's acts, in their order, as one Safe
// transaction through the MultiSendCallOnly multiSend (zero: the
// canonical one), proposed by owner and reviewed (ProposeSafeAct): each
// act's calls built as the act alone builds them (BatchActCalls), and the
// proposal's act named from the calls as an imported batch's is
// (ProposedAct). The CLI's `safe batch` and the dashboard's b on a Safe
// both propose a batch here. An act that cannot be built is a
// *BatchActError naming it.
func (s *Session) ProposeBatch(ctx context.Context, rec *act.Recorder, info safe.Info, owner common.Address, acts []BatchAct, multiSend common.Address) (*SafeReview, error) {
	if len(acts) == 0 || len(acts) > proposal.MaxCalls {
		return nil, fmt.Errorf("a batch has 1 to %d acts, not %d", proposal.MaxCalls, len(acts))
	}
	if !info.IsOwner(owner) {
		return nil, fmt.Errorf("%s is not an owner of the Safe %s", owner.Hex(), info.Address.Hex())
	}
	var calls []safe.InnerCall
	for i, a := range acts {
		built, err := s.BatchActCalls(ctx, rec, info.Address, a)
		if err == nil {
			var inner []safe.InnerCall
			inner, err = InnerOf(built, info.Address, s.Profile.ChainID)
			calls = append(calls, inner...)
		}
		if err != nil {
			return nil, &BatchActError{N: i + 1, Act: a, Err: err}
		}
	}
	named, err := s.ProposedAct(ctx, rec, info.Address, calls)
	if err != nil {
		return nil, err
	}
	return s.ProposeSafeAct(ctx, rec, SafeAct{Safe: info, Act: named, Calls: calls, MultiSend: multiSend}, owner)
}

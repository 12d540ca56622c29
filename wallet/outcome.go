package wallet

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Outcome looks once at a transaction sent earlier and no longer followed
// (hash, sent by from on nonce): final reports whether it has an end the
// journal may record. Mined, it is success or reverted, with its block,
// gas, confirmations and revert reason; unknown to the node while the
// account's mined nonce has passed it, it is dropped (another transaction
// took the nonce). Still held by the node it is pending, or queued behind
// a nonce gap; unknown to the node with its nonce not passed, it may
// still come: neither is final. A look that fails is an error, and
// nothing is concluded from it.
func Outcome(ctx context.Context, node Node, hash common.Hash, from common.Address, nonce uint64) (st Status, final bool, err error) {
	st = Status{Hash: hash, State: StatePending}
	r, err := node.TransactionReceipt(ctx, hash)
	switch {
	case err == nil && r.BlockNumber != nil:
		return minedOutcome(ctx, node, hash, from, r), true, nil
	case err == nil:
		return st, false, fmt.Errorf("receipt of %s names no block", hash.Hex())
	case !errors.Is(err, ethereum.NotFound):
		return st, false, fmt.Errorf("look for %s: %w", hash.Hex(), err)
	}
	tx, _, err := node.TransactionByHash(ctx, hash)
	switch {
	case err == nil:
		if tx != nil && tx.Nonce() == nonce {
			t := &Tracker{node: node, tx: tx, from: from}
			if behind, ok := t.queued(ctx); ok {
				st.State, st.Behind = StateQueued, behind
			}
		}
		return st, false, nil
	case !errors.Is(err, ethereum.NotFound):
		return st, false, fmt.Errorf("look for %s: %w", hash.Hex(), err)
	}
	mined, err := node.NonceAt(ctx, from, nil)
	if err != nil {
		return st, false, fmt.Errorf("nonce of %s: %w", from.Hex(), err)
	}
	if mined > nonce {
		// Mined between the two looks, or replaced: look once more.
		if r, err := node.TransactionReceipt(ctx, hash); err == nil && r.BlockNumber != nil {
			return minedOutcome(ctx, node, hash, from, r), true, nil
		}
		st.State = StateDropped
		return st, true, nil
	}
	return st, false, nil
}

// minedOutcome is the status of transaction hash, mined with receipt r.
func minedOutcome(ctx context.Context, node Node, hash common.Hash, from common.Address, r *types.Receipt) Status {
	st := Status{Hash: hash, State: StateSuccess, Block: r.BlockNumber.Uint64(), GasUsed: r.GasUsed, Confirmations: 1}
	if head, err := node.BlockNumber(ctx); err == nil && head >= st.Block {
		st.Confirmations = head - st.Block + 1
	}
	if r.Status != types.ReceiptStatusSuccessful {
		st.State = StateReverted
		if tx, _, err := node.TransactionByHash(ctx, hash); err == nil && tx != nil {
			st.RevertReason = minedRevertReason(ctx, node, from, tx, r)
		}
	}
	return st
}

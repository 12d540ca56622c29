package session

import (
	"context"
	"fmt"
	"math/big"

	"allot/wallet"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// seededNode is the embedded sandbox's chain as the session hands it out:
// every call first waits, bounded by its context, until the sandbox has
// deployed its world there, so that no read sees a chain without the
// world's contracts or the demo wallets' tokens.
type seededNode struct {
	node   wallet.Node
	seeded func(ctx context.Context) error
}

var _ wallet.Node = seededNode{}

func (n seededNode) wait(ctx context.Context) error {
	if err := n.seeded(ctx); err != nil {
		return fmt.Errorf("the embedded sandbox's chain: %w", err)
	}
	return nil
}

func (n seededNode) CallContract(ctx context.Context, call ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if err := n.wait(ctx); err != nil {
		return nil, err
	}
	return n.node.CallContract(ctx, call, block)
}

func (n seededNode) ChainID(ctx context.Context) (*big.Int, error) {
	if err := n.wait(ctx); err != nil {
		return nil, err
	}
	return n.node.ChainID(ctx)
}

func (n seededNode) BlockNumber(ctx context.Context) (uint64, error) {
	if err := n.wait(ctx); err != nil {
		return 0, err
	}
	return n.node.BlockNumber(ctx)
}

func (n seededNode) HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error) {
	if err := n.wait(ctx); err != nil {
		return nil, err
	}
	return n.node.HeaderByNumber(ctx, number)
}

func (n seededNode) NonceAt(ctx context.Context, account common.Address, block *big.Int) (uint64, error) {
	if err := n.wait(ctx); err != nil {
		return 0, err
	}
	return n.node.NonceAt(ctx, account, block)
}

func (n seededNode) PendingNonceAt(ctx context.Context, account common.Address) (uint64, error) {
	if err := n.wait(ctx); err != nil {
		return 0, err
	}
	return n.node.PendingNonceAt(ctx, account)
}

func (n seededNode) EstimateGas(ctx context.Context, call ethereum.CallMsg) (uint64, error) {
	if err := n.wait(ctx); err != nil {
		return 0, err
	}
	return n.node.EstimateGas(ctx, call)
}

func (n seededNode) SuggestGasTipCap(ctx context.Context) (*big.Int, error) {
	if err := n.wait(ctx); err != nil {
		return nil, err
	}
	return n.node.SuggestGasTipCap(ctx)
}

func (n seededNode) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if err := n.wait(ctx); err != nil {
		return err
	}
	return n.node.SendTransaction(ctx, tx)
}

func (n seededNode) TransactionByHash(ctx context.Context, hash common.Hash) (*types.Transaction, bool, error) {
	if err := n.wait(ctx); err != nil {
		return nil, false, err
	}
	return n.node.TransactionByHash(ctx, hash)
}

func (n seededNode) TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	if err := n.wait(ctx); err != nil {
		return nil, err
	}
	return n.node.TransactionReceipt(ctx, hash)
}

package session

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"allot/wallet"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// seededNode is the embedded sandbox's chain as the session hands it out:
// every call first waits, bounded by its context, until the sandbox has
// started the chain and deployed its world there, so that no read sees a
// chain without the world's contracts or the demo wallets' tokens.
type seededNode struct {
	seeded func(ctx context.Context) error
	// node is the chain, called only once seeded has returned nil.
	node func() wallet.Node
}

var _ wallet.Node = seededNode{}

func (n seededNode) wait(ctx context.Context) (wallet.Node, error) {
	if err := n.seeded(ctx); err != nil {
		return nil, fmt.Errorf("the embedded sandbox's chain: %w", err)
	}
	return n.node(), nil
}

func (n seededNode) CallContract(ctx context.Context, call ethereum.CallMsg, block *big.Int) ([]byte, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.CallContract(ctx, call, block)
}

func (n seededNode) CodeAt(ctx context.Context, account common.Address, block *big.Int) ([]byte, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.CodeAt(ctx, account, block)
}

// StorageAt reads storage, as proxies and Safes are read (wallet.ReadProxy,
// safe.Read), from a chain that can.
func (n seededNode) StorageAt(ctx context.Context, account common.Address, key common.Hash, block *big.Int) ([]byte, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	storage, ok := node.(wallet.StorageReader)
	if !ok {
		return nil, errors.New("the embedded sandbox's chain cannot read storage")
	}
	return storage.StorageAt(ctx, account, key, block)
}

func (n seededNode) ChainID(ctx context.Context) (*big.Int, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.ChainID(ctx)
}

func (n seededNode) BlockNumber(ctx context.Context) (uint64, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return 0, err
	}
	return node.BlockNumber(ctx)
}

func (n seededNode) HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.HeaderByNumber(ctx, number)
}

func (n seededNode) NonceAt(ctx context.Context, account common.Address, block *big.Int) (uint64, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return 0, err
	}
	return node.NonceAt(ctx, account, block)
}

func (n seededNode) PendingNonceAt(ctx context.Context, account common.Address) (uint64, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return 0, err
	}
	return node.PendingNonceAt(ctx, account)
}

func (n seededNode) EstimateGas(ctx context.Context, call ethereum.CallMsg) (uint64, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return 0, err
	}
	return node.EstimateGas(ctx, call)
}

func (n seededNode) SuggestGasTipCap(ctx context.Context) (*big.Int, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.SuggestGasTipCap(ctx)
}

func (n seededNode) FeeHistory(ctx context.Context, blocks uint64, last *big.Int, percentiles []float64) (*ethereum.FeeHistory, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.FeeHistory(ctx, blocks, last, percentiles)
}

func (n seededNode) BalanceAt(ctx context.Context, account common.Address, block *big.Int) (*big.Int, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.BalanceAt(ctx, account, block)
}

func (n seededNode) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	node, err := n.wait(ctx)
	if err != nil {
		return err
	}
	return node.SendTransaction(ctx, tx)
}

func (n seededNode) TransactionByHash(ctx context.Context, hash common.Hash) (*types.Transaction, bool, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, false, err
	}
	return node.TransactionByHash(ctx, hash)
}

func (n seededNode) TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	return node.TransactionReceipt(ctx, hash)
}

var _ wallet.StorageReader = seededNode{}

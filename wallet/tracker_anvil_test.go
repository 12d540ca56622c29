package wallet

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"allot/api/sandbox/chain"
	"allot/api/sandbox/chain/anviltest"
)

// TestTrackerOnAnvil follows transactions on foundry's anvil, which reverts,
// reorgs and drops on request: the tracker must report each as it is,
// never a stale success.
func TestTrackerOnAnvil(t *testing.T) {
	url := anviltest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	node, err := ethclient.DialContext(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	deployer, _ := crypto.HexToECDSA(strings.TrimPrefix(anviltest.Keys[0], "0x"))
	user, _ := crypto.HexToECDSA(strings.TrimPrefix(anviltest.Keys[1], "0x"))
	rpcCall := func(method string, args ...any) {
		t.Helper()
		if err := node.Client().CallContext(ctx, nil, method, args...); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	opts := TrackOptions{Confirmations: 2, Poll: 20 * time.Millisecond, DropAfter: time.Second, Timeout: time.Minute}

	t.Run("reverted, with the decoded reason", func(t *testing.T) {
		c, err := chain.Dial(ctx, url, deployer)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var pool common.Address
		if err := c.Transact(ctx, func(b *chain.Batch) {
			pool = b.DeployStaking(b.DeployToken("Anvil Token", "ANV"), big.NewInt(0))
		}); err != nil {
			t.Fatal(err)
		}
		data, err := chain.PackStake(new(big.Int))
		if err != nil {
			t.Fatal(err)
		}
		tx := sendRaw(t, ctx, node, user, &pool, data)
		rpcCall("evm_mine") // a second block: the requested confirmations
		s, err := Track(ctx, node, tx, opts).Wait(ctx)
		if err != nil || s.State != StateReverted || s.RevertReason != "ZeroAmount()" {
			t.Errorf("Wait = %+v, %v; want reverted with ZeroAmount()", s, err)
		}
	})

	t.Run("mined, then reorged away", func(t *testing.T) {
		to := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
		tx := sendRaw(t, ctx, node, user, &to, nil)
		tr := Track(ctx, node, tx, opts)
		if s := nextUpdate(t, tr, func(s Status) bool { return s.Mined() }); s.State != StateSuccess || s.Confirmations != 1 {
			t.Fatalf("mined %+v", s)
		}
		rpcCall("anvil_reorg", 1, []any{}) // the block is replaced by an empty one
		s, err := tr.Wait(ctx)
		if err != nil || s.State != StateDropped || !s.Reorged {
			t.Errorf("Wait = %+v, %v; want reorged and dropped", s, err)
		}
	})

	t.Run("dropped from the pool", func(t *testing.T) {
		rpcCall("evm_setAutomine", false)
		defer rpcCall("evm_setAutomine", true)
		to := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
		tx := sendRaw(t, ctx, node, user, &to, nil)
		tr := Track(ctx, node, tx, opts)
		nextUpdate(t, tr, func(s Status) bool { return s.State == StatePending })
		rpcCall("anvil_dropTransaction", tx.Hash())
		s, err := tr.Wait(ctx)
		if err != nil || s.State != StateDropped || s.Reorged {
			t.Errorf("Wait = %+v, %v; want dropped", s, err)
		}
	})
}

// sendRaw signs and sends a call from key with a fixed gas limit: a call
// that reverts cannot be estimated.
func sendRaw(t *testing.T, ctx context.Context, node *ethclient.Client, key *ecdsa.PrivateKey, to *common.Address, data []byte) *types.Transaction {
	t.Helper()
	chainID, err := node.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nonce, err := node.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 200_000, To: to, Data: data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := node.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	return tx
}

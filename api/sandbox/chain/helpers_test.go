package chain

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
)

// testStart is the genesis time of test chains: in the future, so that
// every block is exactly one second after its parent (see Options.Start).
var testStart = time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)

// ether is n whole units of an 18-decimals amount.
func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(params.Ether)) }

// testKey derives a fixed key from a name, so failures are reproducible.
func testKey(t testing.TB, name string) *ecdsa.PrivateKey {
	t.Helper()
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("allot chain test " + name)))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func addr(key *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(key.PublicKey) }

// newTestChain starts a chain at testStart that gives every key 100 ether.
func newTestChain(t testing.TB, keys ...*ecdsa.PrivateKey) *Chain {
	t.Helper()
	balances := map[common.Address]*big.Int{}
	for _, k := range keys {
		balances[addr(k)] = ether(100)
	}
	c, err := New(Options{Balances: balances, Start: testStart})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// send signs a transaction from key, mines it and returns its receipt,
// whatever its status.
func send(t testing.TB, c *Chain, key *ecdsa.PrivateKey, to common.Address, value *big.Int, data []byte) *types.Receipt {
	t.Helper()
	tx := sendPending(t, c, key, to, value, data)
	c.Commit()
	receipt, err := c.Client().TransactionReceipt(context.Background(), tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return receipt
}

// sendPending signs and sends a transaction from key, leaving it to wait
// in the pool.
func sendPending(t testing.TB, c *Chain, key *ecdsa.PrivateKey, to common.Address, value *big.Int, data []byte) *types.Transaction {
	t.Helper()
	ctx := context.Background()
	client := c.Client()
	nonce, err := client.PendingNonceAt(ctx, addr(key))
	if err != nil {
		t.Fatal(err)
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	chainID := new(big.Int).SetUint64(c.ChainID())
	tip := big.NewInt(params.GWei)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID:   chainID,
		Nonce:     nonce,
		GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       1_000_000, // fixed, so that reverting transactions are mined too
		To:        &to,
		Value:     value,
		Data:      data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	return tx
}

// revertOf runs a call from `from` as eth_estimateGas does before a wallet
// sends, and returns its decoded revert; it fails the test if the call
// succeeds or the revert does not decode.
func revertOf(t testing.TB, c *Chain, from, to common.Address, value *big.Int, data []byte) *Revert {
	t.Helper()
	_, err := c.Client().EstimateGas(context.Background(), ethereum.CallMsg{From: from, To: &to, Value: value, Data: data})
	if err == nil {
		t.Fatal("call succeeded, want a revert")
	}
	raw, ok := RevertData(err)
	if !ok {
		t.Fatalf("no revert data in %v", err)
	}
	r, err := DecodeRevert(raw)
	if err != nil {
		t.Fatalf("decode revert: %v", err)
	}
	return r
}

// wantRevert checks a decoded revert's one-line form.
func wantRevert(t testing.TB, r *Revert, want string) {
	t.Helper()
	if got := r.Error(); got != want {
		t.Errorf("revert = %s, want %s", got, want)
	}
}

func mustOK(t testing.TB, r *types.Receipt) {
	t.Helper()
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s failed", r.TxHash)
	}
}

func mustFail(t testing.TB, r *types.Receipt) {
	t.Helper()
	if r.Status == types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s succeeded, want a revert", r.TxHash)
	}
}

func mustBig(t testing.TB) func(*big.Int, error) *big.Int {
	return func(v *big.Int, err error) *big.Int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func headTime(t testing.TB, c *Chain) time.Time {
	t.Helper()
	now, err := c.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// advanceTo seals blocks so that the next block is mined exactly at `at`.
func advanceTo(t testing.TB, c *Chain, at time.Time) {
	t.Helper()
	d := at.Sub(headTime(t, c)) - time.Second
	switch {
	case d == 0:
		return // the next block comes one second after the head anyway
	case d < time.Second:
		t.Fatalf("cannot mine the next block at %s: head is at %s", at, headTime(t, c))
	}
	if err := c.AdvanceTime(d); err != nil {
		t.Fatal(err)
	}
}

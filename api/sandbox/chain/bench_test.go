package chain

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// sandboxStart does what the sandbox does on start, after New: one batch
// deploying the token, three vesters with a root each, five staking pools,
// minting to every wallet and funding the vesters.
func sandboxStart(tb testing.TB, c *Chain, wallets []common.Address) {
	tb.Helper()
	err := c.Transact(context.Background(), func(batch *Batch) {
		token := batch.DeployToken("Allot Test", "AT")
		batch.Mint(token, c.Deployer(), ether(3_000_000))
		for i := range 3 {
			vester := batch.DeployVester(token, claimFee)
			batch.AddRoot(vester, crypto.Keccak256Hash([]byte{byte(i)}))
			batch.Fund(vester, ether(1_000_000))
		}
		for range 5 {
			batch.DeployStaking(token, platformFee)
		}
		for _, w := range wallets {
			batch.Mint(token, w, ether(10_000))
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func testWallets(tb testing.TB, n int) ([]common.Address, map[common.Address]*big.Int) {
	wallets := make([]common.Address, n)
	balances := map[common.Address]*big.Int{}
	for i := range wallets {
		wallets[i] = addr(testKey(tb, fmt.Sprint("wallet ", i)))
		balances[wallets[i]] = ether(100)
	}
	return wallets, balances
}

// TestStartInOneBlock: the whole start-up batch is one block, so it moves
// chain time by one second at most.
func TestStartInOneBlock(t *testing.T) {
	wallets, _ := testWallets(t, 10)
	c := newTestChain(t)
	sandboxStart(t, c, wallets)
	if n, err := c.Client().BlockNumber(context.Background()); err != nil || n != 1 {
		t.Errorf("start-up took blocks up to %d (%v), want one block", n, err)
	}
}

// BenchmarkStart measures the sandbox chain's start: New funding ten
// wallets, then sandboxStart.
func BenchmarkStart(b *testing.B) {
	wallets, balances := testWallets(b, 10)
	for b.Loop() {
		c, err := New(Options{Balances: balances})
		if err != nil {
			b.Fatal(err)
		}
		sandboxStart(b, c, wallets)
		b.StopTimer()
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

package chain

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

func TestNewOptions(t *testing.T) {
	alice := testKey(t, "alice")
	c, err := New(Options{ChainID: 777, Balances: map[common.Address]*big.Int{addr(alice): ether(3)}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if id, err := c.Client().ChainID(ctx); err != nil || id.Uint64() != 777 || c.ChainID() != 777 {
		t.Errorf("chain id = %v, %v (ChainID() %d); want 777", id, err, c.ChainID())
	}
	if got, err := c.Client().BalanceAt(ctx, addr(alice), nil); err != nil || got.Cmp(ether(3)) != 0 {
		t.Errorf("alice's balance = %v, %v; want %s", got, err, ether(3))
	}
	// Without Start the chain begins now.
	if now := headTime(t, c); time.Since(now).Abs() > 5*time.Second {
		t.Errorf("genesis at %s, want about now", now)
	}
	if _, err := New(Options{Balances: map[common.Address]*big.Int{addr(alice): big.NewInt(-1)}}); err == nil {
		t.Error("New accepted a negative balance")
	}
}

// TestDeterministicAddresses: the same deployments on a fresh chain land at
// the same addresses, whatever the time.
func TestDeterministicAddresses(t *testing.T) {
	deploy := func(c *Chain) [3]common.Address {
		var out [3]common.Address
		err := c.Transact(context.Background(), func(b *Batch) {
			out[0] = b.DeployToken("Allot Test", "AT")
			out[1] = b.DeployVester(out[0], claimFee)
			out[2] = b.DeployStaking(out[0], platformFee)
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	first := deploy(newTestChain(t))
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if second := deploy(c); second != first {
		t.Errorf("second start deployed at %v, first at %v", second, first)
	}
	for _, a := range first {
		code, err := c.Client().CodeAt(context.Background(), a, nil)
		if err != nil || len(code) == 0 {
			t.Errorf("no code at %s: %v", a, err)
		}
	}
}

// TestPlanAddresses: Plan names the addresses the first Transact on a new
// chain deploys at, mints and funds between deploys included, and refuses
// to fund a vester it cannot know the token of.
func TestPlanAddresses(t *testing.T) {
	batch := func(out *[3]common.Address) func(b *Batch) {
		return func(b *Batch) {
			out[0] = b.DeployToken("Allot Test", "AT")
			out[1] = b.DeployVester(out[0], claimFee)
			b.Mint(out[0], b.deployer, ether(5))
			b.Fund(out[1], ether(5))
			out[2] = b.DeployStaking(out[0], platformFee)
		}
	}
	var planned, deployed [3]common.Address
	if err := Plan(batch(&planned)); err != nil {
		t.Fatal(err)
	}
	if err := newTestChain(t).Transact(context.Background(), batch(&deployed)); err != nil {
		t.Fatal(err)
	}
	if planned != deployed {
		t.Errorf("planned %v, deployed at %v", planned, deployed)
	}
	err := Plan(func(b *Batch) { b.Fund(common.HexToAddress("0x1234"), ether(1)) })
	if err == nil || !strings.Contains(err.Error(), "not a vester of this batch") {
		t.Errorf("Plan funding an unknown vester: %v", err)
	}
}

func TestTransactErrors(t *testing.T) {
	c := newTestChain(t)
	ctx := context.Background()
	var token, vester common.Address
	if err := c.Transact(ctx, func(b *Batch) {
		token = b.DeployToken("Allot Test", "AT")
		vester = b.DeployVester(token, claimFee)
	}); err != nil {
		t.Fatal(err)
	}
	nonce := func() uint64 {
		n, err := c.Client().PendingNonceAt(ctx, c.Deployer())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	// A queueing error sends nothing.
	before := nonce()
	err := c.Transact(ctx, func(b *Batch) {
		b.Mint(token, c.Deployer(), ether(1))
		b.Mint(token, c.Deployer(), nil)
	})
	if err == nil || !strings.Contains(err.Error(), "amount is nil") {
		t.Errorf("Transact with a nil amount: %v", err)
	}
	if after := nonce(); after != before {
		t.Errorf("a refused batch sent %d transactions", after-before)
	}

	// A reverting step is named. Fund finds the vester's token on chain.
	err = c.Transact(ctx, func(b *Batch) {
		b.Mint(token, c.Deployer(), ether(1))
		b.Fund(vester, ether(2)) // more than the deployer holds
	})
	if err == nil || !strings.Contains(err.Error(), "fund "+vester.Hex()) || !strings.Contains(err.Error(), "reverted") {
		t.Errorf("Transact funding more than held: %v", err)
	}
	// Funding something that is not a vester fails before sending.
	err = c.Transact(ctx, func(b *Batch) { b.Fund(token, ether(1)) })
	if err == nil || !strings.Contains(err.Error(), "fund "+token.Hex()) {
		t.Errorf("Transact funding a token: %v", err)
	}
}

func TestAdvanceTime(t *testing.T) {
	alice := testKey(t, "alice")
	c := newTestChain(t, alice)
	start := headTime(t, c)
	if err := c.AdvanceTime(time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := headTime(t, c); !got.Equal(start.Add(time.Hour)) {
		t.Errorf("head at %s after advancing an hour from %s", got, start)
	}

	// A waiting transaction is mined first, at the next second.
	tx := sendPending(t, c, alice, addr(testKey(t, "bob")), ether(1), nil)
	if err := c.AdvanceTime(time.Hour); err != nil {
		t.Fatal(err)
	}
	receipt, err := c.Client().TransactionReceipt(context.Background(), tx.Hash())
	if err != nil {
		t.Fatalf("the waiting transaction was not mined: %v", err)
	}
	block, err := c.Client().HeaderByNumber(context.Background(), receipt.BlockNumber)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := time.Unix(int64(block.Time), 0), start.Add(time.Hour+time.Second); !got.Equal(want) {
		t.Errorf("waiting transaction mined at %s, want %s", got, want)
	}
	if got, want := headTime(t, c), start.Add(2*time.Hour+time.Second); !got.Equal(want) {
		t.Errorf("head at %s, want %s", got, want)
	}

	if err := c.AdvanceTime(time.Millisecond); err == nil {
		t.Error("AdvanceTime accepted less than a second")
	}
}

// TestMining: with the mining loop on, a sent transaction is mined without
// Commit and its confirmations count up; after StopMining no block comes.
func TestMining(t *testing.T) {
	alice := testKey(t, "alice")
	c := newTestChain(t, alice)
	ctx := context.Background()
	client := c.Client()
	if err := c.StartMining(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.StartMining(time.Second); err == nil {
		t.Error("a second StartMining succeeded")
	}
	tx := sendPending(t, c, alice, addr(testKey(t, "bob")), ether(1), nil)
	var mined uint64
	deadline := time.Now().Add(10 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("after 10s of mining: transaction in block %d (0: not mined), no block after it", mined)
		}
		time.Sleep(100 * time.Millisecond)
		if mined == 0 {
			if r, err := client.TransactionReceipt(ctx, tx.Hash()); err == nil {
				mined = r.BlockNumber.Uint64()
			}
			continue
		}
		head, err := client.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if head > mined {
			break // a second confirmation
		}
	}
	c.StopMining()
	stopped, err := client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1200 * time.Millisecond)
	if n, err := client.BlockNumber(ctx); err != nil || n != stopped {
		t.Errorf("block %d, %v after StopMining at %d", n, err, stopped)
	}
	c.StopMining() // a second stop is harmless
	if err := c.StartMining(time.Millisecond); err == nil {
		t.Error("StartMining accepted an interval under a second")
	}
}

func TestCloseTwice(t *testing.T) {
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.StartMining(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ServeRPC("127.0.0.1:0"); err == nil {
		t.Error("ServeRPC after Close succeeded")
	}
}

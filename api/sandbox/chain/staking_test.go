package chain

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

var platformFee = big.NewInt(10_000_000_000_000_000) // 0.01 ether

func TestStake(t *testing.T) {
	alice, bob := testKey(t, "alice"), testKey(t, "bob")
	c := newTestChain(t, alice, bob)
	ctx := context.Background()
	var token, pool common.Address
	err := c.Transact(ctx, func(b *Batch) {
		token = b.DeployToken("Allot Test", "AT")
		pool = b.DeployStaking(token, platformFee)
		b.Mint(token, addr(alice), ether(10))
		b.Mint(token, addr(bob), ether(3))
	})
	if err != nil {
		t.Fatal(err)
	}
	stakeData := func(amount *big.Int) []byte { return mustPack(t)(PackStake(amount)) }

	// Without an allowance the token refuses, and the pool passes its error on.
	wantRevert(t, revertOf(t, c, addr(alice), pool, platformFee, stakeData(ether(5))),
		"ERC20InsufficientAllowance(spender: "+pool.Hex()+", allowance: 0, needed: 5000000000000000000)")
	mustFail(t, send(t, c, alice, pool, platformFee, stakeData(ether(5))))

	mustOK(t, send(t, c, alice, token, nil, mustPack(t)(PackApprove(pool, ether(5)))))
	if got := mustBig(t)(c.Allowance(ctx, token, addr(alice), pool)); got.Cmp(ether(5)) != 0 {
		t.Fatalf("allowance %s, want %s", got, ether(5))
	}
	for _, tc := range []struct {
		name  string
		value *big.Int
		data  []byte
		want  string
	}{
		{"no fee", nil, stakeData(ether(5)), "WrongFee(expected: 10000000000000000, sent: 0)"},
		{"zero amount", platformFee, stakeData(new(big.Int)), "ZeroAmount()"},
		{"more than approved", platformFee, stakeData(ether(6)),
			"ERC20InsufficientAllowance(spender: " + pool.Hex() + ", allowance: 5000000000000000000, needed: 6000000000000000000)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantRevert(t, revertOf(t, c, addr(alice), pool, tc.value, tc.data), tc.want)
		})
	}

	receipt := send(t, c, alice, pool, platformFee, stakeData(ether(5)))
	mustOK(t, receipt)
	block, err := c.Client().HeaderByHash(ctx, receipt.BlockHash)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustBig(t)(c.BalanceOf(ctx, token, addr(alice))); got.Cmp(ether(5)) != 0 {
		t.Errorf("alice holds %s after staking 5 of 10, want %s", got, ether(5))
	}
	if fees, err := c.Client().BalanceAt(ctx, pool, nil); err != nil || fees.Cmp(platformFee) != 0 {
		t.Errorf("pool holds %s wei of fees, %v; want %s", fees, err, platformFee)
	}

	// A second stake, by bob, approving exactly what he stakes.
	mustOK(t, send(t, c, bob, token, nil, mustPack(t)(PackApprove(pool, ether(3)))))
	mustOK(t, send(t, c, bob, pool, platformFee, stakeData(ether(3))))

	stakes, err := c.Stakes(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	want := []Stake{
		{Staker: addr(alice), Amount: ether(5), At: time.Unix(int64(block.Time), 0).UTC()},
		{Staker: addr(bob), Amount: ether(3)},
	}
	if len(stakes) != len(want) {
		t.Fatalf("Stakes = %+v, want %d stakes", stakes, len(want))
	}
	for i, s := range stakes {
		if s.Staker != want[i].Staker || s.Amount.Cmp(want[i].Amount) != 0 || (i == 0 && !s.At.Equal(want[0].At)) {
			t.Errorf("stake %d = %+v, want %+v", i, s, want[i])
		}
	}
	if got := mustBig(t)(c.TotalStaked(ctx, pool)); got.Cmp(ether(8)) != 0 {
		t.Errorf("TotalStaked = %s, want %s", got, ether(8))
	}
	if got := mustBig(t)(c.PlatformFee(ctx, pool)); got.Cmp(platformFee) != 0 {
		t.Errorf("PlatformFee = %s, want %s", got, platformFee)
	}
}

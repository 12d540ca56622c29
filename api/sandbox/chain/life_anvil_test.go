package chain

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

	"allot/api/sandbox/chain/anviltest"
)

// TestVesterLifeOnAnvil runs the vester's life on foundry's anvil, a node
// allot does not run itself: the schedules getter, a transfer by the
// benefactor and the tokens reaching the new address, a cancel and its
// refusal the second time, production's errors decoded from anvil's
// answers, and getClaimFee read though it is not a view.
func TestVesterLifeOnAnvil(t *testing.T) {
	url := anviltest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	keys := make([]*ecdsa.PrivateKey, 3)
	for i := range keys {
		k, err := crypto.HexToECDSA(strings.TrimPrefix(anviltest.Keys[i], "0x"))
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
	}
	c, err := Dial(ctx, url, keys[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	alice, bob := keys[1], keys[2]
	now, err := c.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 25% unlocked already, the rest in a day: cancelable mid-schedule.
	calendar := testCalendar{UnlockScheduleId: "S-ANVIL",
		UnlockTimestamps: []uint32{uint32(now.Add(-time.Hour).Unix()), uint32(now.Add(24 * time.Hour).Unix())},
		UnlockPercents:   []*big.Int{big.NewInt(250_000), big.NewInt(750_000)}}
	args := [][]byte{
		encodeCalendar(t, testAllocation{Id: "anvil-managed", OriginalBeneficiary: addr(alice), TotalAllocation: ether(1000),
			Cancelable: true, Revokable: true, TransferableByAdmin: true}, calendar),
		encodeCalendar(t, testAllocation{Id: "anvil-other", OriginalBeneficiary: addr(bob), TotalAllocation: ether(10)}, calendar),
	}
	tree := newTestTree(t, args...)
	var token, vester common.Address
	if err := c.Transact(ctx, func(b *Batch) {
		token = b.DeployToken("Anvil Token", "ANV")
		vester = b.DeployVester(token, claimFee)
		b.AddRoot(vester, tree.root())
		b.Mint(token, b.Deployer(), ether(1000))
		b.Fund(vester, ether(1000))
	}); err != nil {
		t.Fatal(err)
	}
	send := func(key *ecdsa.PrivateKey, value *big.Int, data []byte) *types.Receipt {
		t.Helper()
		return awaitReceipt(t, ctx, c, sendPending(t, c, key, vester, value, data))
	}
	proof := tree.proof(0)
	withdraw := func(amount *big.Int) []byte { return mustPack(t)(PackWithdraw(amount, 0, args[0], proof)) }

	if fee := mustBig(t)(c.ClaimFeeOf(ctx, vester, "anvil-managed")); fee.Cmp(claimFee) != 0 {
		t.Errorf("getClaimFee = %s, want %s", fee, claimFee)
	}
	wantRevert(t, revertOf(t, c, addr(alice), vester, claimFee, withdraw(ether(251))), "InsufficientFunds()")
	wantRevert(t, revertOf(t, c, addr(alice), vester, nil, withdraw(ether(1))), "InvalidFeeFundsSent()")

	mustOK(t, send(keys[0], nil, mustPack(t)(PackTransferBeneficiary(addr(bob), 0, args[0], proof))))
	before := mustBig(t)(c.BalanceOf(ctx, token, addr(bob)))
	mustOK(t, send(alice, claimFee, withdraw(ether(100))))
	if got := new(big.Int).Sub(mustBig(t)(c.BalanceOf(ctx, token, addr(bob))), before); got.Cmp(ether(100)) != 0 {
		t.Errorf("bob, the new withdrawal address, received %s, want %s", got, ether(100))
	}
	s, err := c.Schedule(ctx, vester, "anvil-managed")
	if err != nil {
		t.Fatal(err)
	}
	if s.WithdrawalAddress != addr(bob) || s.TerminatedTimestamp != 0 || s.Withdrawn.Cmp(ether(100)) != 0 {
		t.Errorf("schedules = %+v, want bob's, active, 100 withdrawn", s)
	}

	receipt := send(keys[0], nil, mustPack(t)(PackCancel(0, args[0], proof)))
	mustOK(t, receipt)
	if evs := eventArgs(t, receipt, vester, "ScheduleCanceled"); len(evs) != 1 || evs[0][0] != "anvil-managed" {
		t.Errorf("ScheduleCanceled events %v", evs)
	}
	wantRevert(t, revertOf(t, c, c.Deployer(), vester, nil, mustPack(t)(PackCancel(0, args[0], proof))), "AlreadyTerminated()")
	r := revertOf(t, c, addr(alice), vester, nil, mustPack(t)(PackRevoke(0, args[0], proof)))
	if r.Name != "AccessControlUnauthorizedAccount" {
		t.Errorf("revoke by the beneficiary: %s, want AccessControlUnauthorizedAccount", r.Error())
	}
	// What vested before the cancel, less the 100 claimed, and not a wei more.
	wantRevert(t, revertOf(t, c, addr(alice), vester, claimFee, withdraw(ether(151))), "InsufficientFunds()")
	mustOK(t, send(alice, claimFee, withdraw(new(big.Int))))
	if got := new(big.Int).Sub(mustBig(t)(c.BalanceOf(ctx, token, addr(bob))), before); got.Cmp(ether(250)) != 0 {
		t.Errorf("bob received %s in all, want the %s vested before the cancel", got, ether(250))
	}
}

// awaitReceipt waits for an external node to mine tx, until ctx ends.
func awaitReceipt(t testing.TB, ctx context.Context, c *Chain, tx *types.Transaction) *types.Receipt {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		r, err := c.Client().TransactionReceipt(ctx, tx.Hash())
		switch {
		case err == nil:
			return r
		case !isNotFound(err):
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("transaction %s not mined: %v", tx.Hash(), ctx.Err())
		case <-tick.C:
		}
	}
}

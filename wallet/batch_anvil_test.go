package wallet

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"allot/api/sandbox/chain"
	"allot/api/sandbox/chain/anviltest"
)

// TestClaimBatchOnAnvil: on foundry's anvil, started at the fixture's
// time, a multicall of fee-free withdraws that the batch policy approved
// is mined and leaves each allocation with nothing claimable, as on the
// sandbox's chain.
func TestClaimBatchOnAnvil(t *testing.T) {
	url := anviltest.Start(t, "--timestamp", strconv.FormatInt(testStart.Unix(), 10))
	ctx := context.Background()
	deployer, err := crypto.HexToECDSA(strings.TrimPrefix(anviltest.Keys[0], "0x"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := chain.Dial(ctx, url, deployer)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	f := &fixture{chain: c, node: c.Client(), alice: newKeySigner(t, "alice"), bob: newKeySigner(t, "bob"), stranger: newKeySigner(t, "stranger")}
	if err := c.Transact(ctx, func(b *chain.Batch) { b.SendNative(f.alice.Address(), ether(10)) }); err != nil {
		t.Fatal(err)
	}
	f.seed(t)
	claimInOneMulticall(t, f, f.freeVester(t), []int{aliceLeaf, 2, 3})
}

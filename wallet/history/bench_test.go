package history

import (
	"context"
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox/chain"
	"allot/wallet/merkle"
	"allot/wallet/vesting"
)

// benchClaims is the size of the wallet history the benchmark reads: the
// issue's target is 10,000 claims in under 2 s.
const benchClaims = 10_000

// manyClaims is a chain on which benchClaims claims paid one wallet, from
// ten allocations of one vester, sent by the deployer in batches (anyone
// may send a withdraw).
type manyClaims struct {
	chain  *chain.Chain
	wallet common.Address
	vester common.Address
}

func newManyClaims(b *testing.B) *manyClaims {
	b.Helper()
	c, err := chain.New(chain.Options{Start: testStart})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	m := &manyClaims{chain: c, wallet: common.HexToAddress("0x00000000000000000000000000000000000b1e55")}
	const allocations = 10
	var leaves []common.Hash
	var args [][]byte
	for i := range allocations {
		a := halfUnlocked(fmt.Sprintf("0d9a7c3e-1b2f-4c5d-8e6f-%012d", i), m.wallet, ether(10*benchClaims))
		data, err := vesting.Encode(a)
		if err != nil {
			b.Fatal(err)
		}
		args = append(args, data)
		leaves = append(leaves, merkle.Leaf(data))
	}
	tree, err := merkle.New(leaves)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	err = c.Transact(ctx, func(batch *chain.Batch) {
		token := batch.DeployToken("Allot Bench", "AB")
		m.vester = batch.DeployVester(token, claimFee)
		batch.AddRoot(m.vester, tree.Root())
		batch.Mint(token, c.Deployer(), ether(10*benchClaims))
		batch.Fund(m.vester, ether(10*benchClaims))
	})
	if err != nil {
		b.Fatal(err)
	}
	const perBatch = 1_000
	for sent := 0; sent < benchClaims; sent += perBatch {
		err := c.Transact(ctx, func(batch *chain.Batch) {
			for i := range perBatch {
				n := (sent + i) % allocations
				proof, err := tree.Proof(leaves[n])
				if err != nil {
					b.Fatal(err)
				}
				batch.Withdraw(m.vester, chain.Leaf{DecodableArgs: args[n], Proof: proof}, ether(1), claimFee)
			}
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return m
}

// BenchmarkWalletHistory10k reads the history of a wallet that received
// 10,000 claims over the in-process client, as `allot history --wallet`
// does on the embedded sandbox: the log scan, then each claim's
// transaction, receipt and block checked.
func BenchmarkWalletHistory10k(b *testing.B) {
	m := newManyClaims(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h, err := New(m.chain.Client(), Options{}).Wallet(ctx, m.wallet, []common.Address{m.vester})
		if err != nil {
			b.Fatal(err)
		}
		if len(h.Events) != benchClaims || h.Skipped != 0 {
			b.Fatalf("%d claims (%d skipped: %v), want %d", len(h.Events), h.Skipped, h.Warnings, benchClaims)
		}
	}
	b.ReportMetric(float64(benchClaims), "claims/op")
}

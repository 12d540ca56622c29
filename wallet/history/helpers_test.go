package history

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"allot/api/sandbox/chain"
	"allot/wallet/merkle"
	"allot/wallet/vesting"
)

// testStart is the genesis time of test chains: in the future, so that
// every block is exactly one second after its parent.
var testStart = time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)

var claimFee = big.NewInt(1_000_000_000_000_000) // 0.001 ether

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(params.Ether)) }

func testKey(t testing.TB, name string) *ecdsa.PrivateKey {
	t.Helper()
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("allot history test " + name)))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func addr(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// fixture is a chain with a token, a funded vester whose root 0 commits
// the allocations of allocs, each half unlocked from genesis, and a
// post-claim vault the vester whitelists.
type fixture struct {
	chain                *chain.Chain
	node                 Node
	token, vester, vault common.Address
	alice, bob, stranger *ecdsa.PrivateKey
	allocs               []vesting.Args
	args                 [][]byte
	tree                 *merkle.Tree
}

// The fixture's allocations: two of alice's, one of bob's.
const (
	aliceFirst = iota
	aliceSecond
	bobs
)

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{alice: testKey(t, "alice"), bob: testKey(t, "bob"), stranger: testKey(t, "stranger")}
	balances := map[common.Address]*big.Int{}
	for _, k := range []*ecdsa.PrivateKey{f.alice, f.bob, f.stranger} {
		balances[addr(k)] = ether(1000)
	}
	c, err := chain.New(chain.Options{Start: testStart, Balances: balances})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	f.chain, f.node = c, c.Client()
	f.allocs = []vesting.Args{
		halfUnlocked("0d9a7c3e-1b2f-4c5d-8e6f-00000000a001", addr(f.alice), ether(1000)),
		halfUnlocked("0d9a7c3e-1b2f-4c5d-8e6f-00000000a002", addr(f.alice), ether(500)),
		halfUnlocked("0d9a7c3e-1b2f-4c5d-8e6f-00000000b001", addr(f.bob), ether(800)),
	}
	leaves := make([]common.Hash, len(f.allocs))
	for i, a := range f.allocs {
		data, err := vesting.Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		f.args = append(f.args, data)
		leaves[i] = merkle.Leaf(data)
	}
	if f.tree, err = merkle.New(leaves); err != nil {
		t.Fatal(err)
	}
	err = c.Transact(context.Background(), func(b *chain.Batch) {
		f.token = b.DeployToken("Allot Test", "AT")
		f.vester = b.DeployVester(f.token, claimFee)
		f.vault = b.DeployPostClaimVault(f.vester, f.token)
		b.AddRoot(f.vester, f.tree.Root())
		b.Mint(f.token, c.Deployer(), ether(10_000))
		b.Fund(f.vester, ether(10_000))
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// halfUnlocked is an allocation that unlocked half its total at genesis
// and unlocks the rest a year later; its benefactor may cancel, revoke or
// transfer it.
func halfUnlocked(id string, beneficiary common.Address, total *big.Int) vesting.Args {
	start := uint32(testStart.Unix())
	return vesting.Args{
		Allocation: vesting.Allocation{ID: id, OriginalBeneficiary: beneficiary, TotalAllocation: total,
			Cancelable: true, Revokable: true, TransferableByAdmin: true},
		Schedule: vesting.Schedule{Kind: vesting.Calendar, UnlockScheduleID: "S-HISTORY1",
			UnlockTimestamps: []uint32{start, start + 365*24*3600},
			UnlockPercents:   []*big.Int{big.NewInt(vesting.PercentScale / 2), big.NewInt(vesting.PercentScale / 2)}},
	}
}

// leaf is allocation i as the vester's calls take it.
func (f *fixture) leaf(t testing.TB, i int) chain.Leaf {
	t.Helper()
	proof, err := f.tree.Proof(merkle.Leaf(f.args[i]))
	if err != nil {
		t.Fatal(err)
	}
	return chain.Leaf{RootIndex: 0, DecodableArgs: f.args[i], Proof: proof}
}

// withdrawData is the calldata of a direct withdraw of allocation i.
func (f *fixture) withdrawData(t testing.TB, i int, amount *big.Int) []byte {
	t.Helper()
	l := f.leaf(t, i)
	data, err := chain.PackWithdraw(amount, l.RootIndex, l.DecodableArgs, l.Proof)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// benefactor sends the vester's benefactor's transactions of fn in a
// block of their own.
func (f *fixture) benefactor(t testing.TB, fn func(b *chain.Batch)) {
	t.Helper()
	if err := f.chain.Transact(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// send signs a transaction from key without mining it.
func (f *fixture) send(t testing.TB, key *ecdsa.PrivateKey, to common.Address, value *big.Int, data []byte) *types.Transaction {
	t.Helper()
	ctx := context.Background()
	client := f.chain.Client()
	nonce, err := client.PendingNonceAt(ctx, addr(key))
	if err != nil {
		t.Fatal(err)
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := new(big.Int).SetUint64(f.chain.ChainID())
	tip := big.NewInt(params.GWei)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       1_000_000, To: &to, Value: value, Data: data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	return tx
}

// claim sends a withdraw of amount of allocation i from key, mines it and
// returns its receipt, which must be a success.
func (f *fixture) claim(t testing.TB, key *ecdsa.PrivateKey, i int, amount *big.Int) *types.Receipt {
	t.Helper()
	return f.mined(t, f.send(t, key, f.vester, claimFee, f.withdrawData(t, i, amount)), i)
}

// mined mines tx, a withdraw of allocation i, and returns its receipt,
// which must be a success.
func (f *fixture) mined(t testing.TB, tx *types.Transaction, i int) *types.Receipt {
	t.Helper()
	f.chain.Commit()
	r, err := f.chain.Client().TransactionReceipt(context.Background(), tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("claim of allocation %d reverted", i)
	}
	return r
}

// emptyBlocks seals n empty blocks.
func (f *fixture) emptyBlocks(n int) {
	for range n {
		f.chain.Commit()
	}
}

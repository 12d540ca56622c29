package wallet

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"allot/api/sandbox/chain"
	"allot/wallet/keystore"
	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/accounts"
	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/params"
	"github.com/google/uuid"
)

// The simulated backend's client is a Node, as ethclient.Client is (see
// node.go); a keystore account is a Signer.
var (
	_ Node   = simulated.Client(nil)
	_ Signer = (*keystore.Signer)(nil)
)

// testStart is the genesis time of test chains: in the future, so that
// every block is exactly one second after its parent.
var testStart = time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)

var (
	claimFee    = big.NewInt(1_000_000_000_000_000)  // 0.001 ether
	platformFee = big.NewInt(10_000_000_000_000_000) // 0.01 ether
)

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(params.Ether)) }

// keySigner is a Signer over a bare key, standing in for an unlocked
// keystore account.
type keySigner struct{ key *ecdsa.PrivateKey }

func newKeySigner(t testing.TB, name string) *keySigner {
	t.Helper()
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("allot wallet test " + name)))
	if err != nil {
		t.Fatal(err)
	}
	return &keySigner{key: key}
}

// keystoreSigner puts s's key into a keystore of its own (light scrypt),
// unlocks it and returns the keystore's signer: the real way from a key
// file to a signature.
func (s *keySigner) keystoreSigner(t testing.TB) *keystore.Signer {
	t.Helper()
	const passphrase = "correct horse"
	addr := s.Address()
	data, err := gethkeystore.EncryptKey(&gethkeystore.Key{Id: uuid.New(), Address: addr, PrivateKey: s.key},
		passphrase, gethkeystore.LightScryptN, gethkeystore.LightScryptP)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "key.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	store, err := keystore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Unlock(addr, passphrase); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.LockAll)
	return store.Signer(addr)
}

func (s *keySigner) Address() common.Address { return crypto.PubkeyToAddress(s.key.PublicKey) }

func (s *keySigner) SignText(text []byte) ([]byte, error) {
	sig, err := crypto.Sign(accounts.TextHash(text), s.key)
	if err != nil {
		return nil, err
	}
	sig[crypto.RecoveryIDOffset] += 27
	return sig, nil
}

func (s *keySigner) SignTx(tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	return types.SignTx(tx, types.LatestSignerForChainID(chainID), s.key)
}

// fixture is a chain with a token, a funded vester whose root 0 commits
// five allocations, and a staking pool.
type fixture struct {
	chain                *chain.Chain
	node                 Node
	token, vester, pool  common.Address
	alice, bob, stranger *keySigner
	args                 [][]byte // decodableArgs, alice's first
	tree                 *merkle.Tree
}

const (
	aliceLeaf = 0 // calendar: 25% at genesis, 75% a year later
	bobLeaf   = 1 // interval: a quarter each 100 s from genesis
	// bob's, as bobLeaf's, and transferableByBeneficiary
	transferLeaf = 5
)

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{alice: newKeySigner(t, "alice"), bob: newKeySigner(t, "bob"), stranger: newKeySigner(t, "stranger")}
	c, err := chain.New(chain.Options{Start: testStart, Balances: map[common.Address]*big.Int{
		f.alice.Address(): ether(100), f.bob.Address(): ether(100), f.stranger.Address(): ether(100),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	f.chain, f.node = c, c.Client()
	f.seed(t)
	return f
}

// seed deploys the fixture's contracts on its chain: a token, a vester
// holding the tree of testAllocations and funded, a staking pool.
func (f *fixture) seed(t testing.TB) {
	t.Helper()
	c := f.chain
	allocations := testAllocations(f.alice.Address(), f.bob.Address())
	leaves := make([]common.Hash, len(allocations))
	for i, a := range allocations {
		data, err := vesting.Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		f.args = append(f.args, data)
		leaves[i] = merkle.Leaf(data)
	}
	var err error
	if f.tree, err = merkle.New(leaves); err != nil {
		t.Fatal(err)
	}
	err = c.Transact(context.Background(), func(b *chain.Batch) {
		f.token = b.DeployToken("Allot Test", "AT")
		f.vester = b.DeployVester(f.token, claimFee)
		f.pool = b.DeployStaking(f.token, platformFee)
		b.AddRoot(f.vester, f.tree.Root())
		b.Mint(f.token, c.Deployer(), ether(10_000))
		b.Fund(f.vester, ether(10_000))
		b.Mint(f.token, f.alice.Address(), ether(50))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testAllocations are the leaves of the fixture's tree: alice's and bob's,
// three more for other wallets, then bob's transferable one.
func testAllocations(alice, bob common.Address) []vesting.Args {
	start := uint32(testStart.Unix())
	allocations := []vesting.Args{
		{
			Allocation: vesting.Allocation{ID: "7f3c2a10-0000-4000-8000-00000000a11c", OriginalBeneficiary: alice, TotalAllocation: ether(1000), Revokable: true},
			Schedule: vesting.Schedule{Kind: vesting.Calendar, UnlockScheduleID: "S-CAL00001",
				UnlockTimestamps: []uint32{start, start + 365*24*3600},
				UnlockPercents:   []*big.Int{big.NewInt(250_000), big.NewInt(750_000)}},
		},
		{
			Allocation: vesting.Allocation{ID: "7f3c2a10-0000-4000-8000-000000000b0b", OriginalBeneficiary: bob, TotalAllocation: ether(400)},
			Schedule: vesting.Schedule{Kind: vesting.Interval, UnlockScheduleID: "S-INT00001",
				Pieces: []vesting.Piece{{StartDate: start, PeriodLength: 100, NumberOfPeriods: 4, Percent: 1_000_000}}},
		},
	}
	for i := range 3 {
		filler := allocations[0]
		filler.Allocation.ID = "filler-" + string(rune('a'+i))
		filler.Allocation.OriginalBeneficiary = common.BigToAddress(big.NewInt(int64(1000 + i)))
		allocations = append(allocations, filler)
	}
	// Bob's second allocation, which its holder may transfer (D18).
	transferable := allocations[bobLeaf]
	transferable.Allocation.ID = "7f3c2a10-0000-4000-8000-0000000007f4"
	transferable.Allocation.TransferableByBeneficiary = true
	return append(allocations, transferable)
}

// proof returns the merkle proof of leaf i as the service would serve it.
func (f *fixture) proof(t testing.TB, i int) *Proof {
	t.Helper()
	leaf := merkle.Leaf(f.args[i])
	siblings, err := f.tree.Proof(leaf)
	if err != nil {
		t.Fatal(err)
	}
	args, err := vesting.Decode(f.args[i])
	if err != nil {
		t.Fatal(err)
	}
	wallet := args.Allocation.OriginalBeneficiary
	return &Proof{ID: "proof-" + args.Allocation.ID, DecodableArgs: f.args[i], Hash: &leaf, WalletAddress: &wallet, Siblings: siblings}
}

// withdrawCall is the claim instruction the service would hand out for
// leaf i.
func (f *fixture) withdrawCall(t testing.TB, i int, from common.Address, amount *big.Int) Call {
	t.Helper()
	p := f.proof(t, i)
	data, err := chain.PackWithdraw(amount, p.RootIndex, p.DecodableArgs, p.Siblings)
	if err != nil {
		t.Fatal(err)
	}
	return Call{ChainID: f.chain.ChainID(), From: from, To: f.vester, Data: data, Value: new(big.Int).Set(claimFee)}
}

func (f *fixture) known() map[common.Address]string {
	return map[common.Address]string{f.vester: "Test vester", f.pool: "Test pool", f.token: "Test token"}
}

func (f *fixture) balance(t testing.TB, owner common.Address) *big.Int {
	t.Helper()
	b, err := TokenBalance(context.Background(), f.node, f.token, owner)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// approved stands for calls the signing policy approved, for the tests of
// what comes after it (building, signing, sending).
func approved(calls []Call) *Approval { return &Approval{calls: calls} }

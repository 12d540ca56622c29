package cli

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/params"

	"allot/api"
	"allot/api/sandbox/chain"
	"allot/core/config"
	"allot/core/session"
	"allot/internal/isotime"
	"allot/wallet"
	"allot/wallet/merkle"
	"allot/wallet/siwe"
	"allot/wallet/vesting"
)

// These tests run the signing commands against a real EVM (the sandbox's
// in-process chain, with the project's token, vester and staking
// contracts) and a small stand-in for the service that hands out the
// instructions each test needs: a claim that works, one that reverts on
// chain, calldata allot cannot decode, another chain.

const (
	testPassphrase = "correct horse battery staple"
	testTokenID    = "3f1a2b4c-0000-4000-8000-000000000001"
	testPortalID   = "3f1a2b4c-0000-4000-8000-000000000002"
	testPoolID     = "3f1a2b4c-0000-4000-8000-000000000003"
	testAllocation = "3f1a2b4c-0000-4000-8000-000000000004"
	// otherAllocation is another wallet's, in the same tree.
	otherAllocation = "3f1a2b4c-0000-4000-8000-000000000005"
)

var (
	claimFee    = big.NewInt(1_000_000_000_000_000)  // 0.001 ether
	platformFee = big.NewInt(10_000_000_000_000_000) // 0.01 ether
)

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(params.Ether)) }

// chainFixture is a chain with a token, a funded vester whose root 0
// holds the user's allocation (all unlocked) and another wallet's, and a
// staking pool; a keystore holding the user's key; the stand-in service;
// and a session on all of them.
type chainFixture struct {
	chain               *chain.Chain
	user, other         common.Address
	token, vester, pool common.Address
	args                [][]byte // decodableArgs: the user's, the other's
	tree                *merkle.Tree
	svc                 *fakeService
	sess                *session.Session
	// hold stops the chain from making blocks while it is set.
	hold atomic.Bool
}

func newChainFixture(t *testing.T) *chainFixture {
	t.Helper()
	ksDir, user := newTestKeystore(t)
	f := &chainFixture{user: user, other: common.HexToAddress("0x00000000000000000000000000000000000b0b00")}
	c, err := chain.New(chain.Options{Balances: map[common.Address]*big.Int{f.user: ether(100)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	f.chain = c

	var leaves []common.Hash
	for _, a := range []vesting.Args{allUnlocked(testAllocation, f.user), allUnlocked(otherAllocation, f.other)} {
		data, err := vesting.Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		f.args = append(f.args, data)
		leaves = append(leaves, merkle.Leaf(data))
	}
	if f.tree, err = merkle.New(leaves); err != nil {
		t.Fatal(err)
	}
	err = c.Transact(context.Background(), func(b *chain.Batch) {
		f.token = b.DeployToken("Test Token", "TT")
		f.vester = b.DeployVester(f.token, claimFee)
		f.pool = b.DeployStaking(f.token, platformFee)
		b.AddRoot(f.vester, f.tree.Root())
		b.Mint(f.token, c.Deployer(), ether(10_000))
		b.Fund(f.vester, ether(10_000))
		b.Mint(f.token, f.user, ether(50))
	})
	if err != nil {
		t.Fatal(err)
	}
	mine(t, c, &f.hold)

	f.svc = &fakeService{t: t, contracts: []api.Contract{
		{ID: "c-vester", Name: "Test vester", Type: "VESTING", Address: f.vester.Hex()},
		{ID: "c-pool", Name: "Test pool", Type: "STAKING", Address: f.pool.Hex()},
	}, pool: f.pool, proofs: map[string]api.MerkleProof{}}
	for i, id := range []string{testAllocation, otherAllocation} {
		leaf := merkle.Leaf(f.args[i])
		siblings, err := f.tree.Proof(leaf)
		if err != nil {
			t.Fatal(err)
		}
		p := api.MerkleProof{ID: id, DecodableArgs: hexutil.Encode(f.args[i]), WalletAddress: []common.Address{f.user, f.other}[i].Hex(), DistributionID: "d-1"}
		for _, s := range siblings {
			p.Proof = append(p.Proof, s.Hex())
		}
		f.svc.proofs[id] = p
	}
	f.svc.claim = func(sender common.Address) []api.EVMInstruction {
		return []api.EVMInstruction{f.withdraw(t, 0, sender, ether(1000))}
	}
	srv := httptest.NewServer(f.svc)
	t.Cleanup(srv.Close)
	client, err := api.New(api.Config{BaseURL: srv.URL, PortalURL: srv.URL, PortalID: testPortalID, APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL)
	f.sess = &session.Session{
		Name: "test",
		Profile: config.Profile{Name: "test", BaseURL: srv.URL, PortalURL: srv.URL, PortalID: testPortalID,
			ChainID: c.ChainID(), Keystore: ksDir, SigninDomain: u.Host,
			Pins: pinsOf(t, c.Client(), map[wallet.PinKind][]common.Address{wallet.PinVester: {f.vester}, wallet.PinStaking: {f.pool}})},
		API:      client,
		TokenIDs: []string{testTokenID},
		Requests: session.NewRequestLog(),
		StateDir: t.TempDir(),
		Now:      time.Now,
		Chain:    c.Client(),
		// The fixture mines every 100 ms.
		TrackPoll: 10 * time.Millisecond,
	}
	return f
}

func allUnlocked(id string, beneficiary common.Address) vesting.Args {
	return vesting.Args{
		Allocation: vesting.Allocation{ID: id, OriginalBeneficiary: beneficiary, TotalAllocation: ether(1000)},
		Schedule: vesting.Schedule{Kind: vesting.Calendar, UnlockScheduleID: "S-TEST0001",
			UnlockTimestamps: []uint32{1}, UnlockPercents: []*big.Int{big.NewInt(vesting.PercentScale)}},
	}
}

// mine seals a block every 100 ms while the test runs and hold is not set,
// as a real chain keeps making blocks.
func mine(t *testing.T, c *chain.Chain, hold *atomic.Bool) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if !hold.Load() {
					c.Commit()
				}
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
}

// withdraw is the claim instruction the service hands out for leaf i.
func (f *chainFixture) withdraw(t *testing.T, i int, from common.Address, amount *big.Int) api.EVMInstruction {
	t.Helper()
	proof, err := f.tree.Proof(merkle.Leaf(f.args[i]))
	if err != nil {
		t.Fatal(err)
	}
	data, err := chain.PackWithdraw(amount, 0, f.args[i], proof)
	if err != nil {
		t.Fatal(err)
	}
	return api.EVMInstruction{ChainID: f.chain.ChainID(), From: from.Hex(), To: f.vester.Hex(), Data: hexutil.Encode(data), Value: claimFee.String()}
}

// hasLine reports whether a line of text holds label and then value, as
// the aligned fields print them.
func hasLine(text, label, value string) bool {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), label); ok && strings.TrimSpace(rest) == value {
			return true
		}
	}
	return false
}

func (f *chainFixture) run(t *testing.T, args ...string) result {
	t.Helper()
	return runCLI(t, f.sess, map[string]string{"ALLOT_PASSPHRASE": testPassphrase}, args...)
}

func (f *chainFixture) balance(t *testing.T) *big.Int {
	t.Helper()
	b, err := wallet.TokenBalance(context.Background(), f.sess.Chain, f.token, f.user)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fakeService answers the operations the signing commands use: contracts,
// claim, portal sign-in and stake parameters.
type fakeService struct {
	t         *testing.T
	contracts []api.Contract
	pool      common.Address
	proofs    map[string]api.MerkleProof
	claim     func(sender common.Address) []api.EVMInstruction
	// stake, when set, rewrites the stake parameters the portal answers.
	stake func(params map[string]string)

	mu     sync.Mutex
	claims int
	token  string
	wallet common.Address
}

func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	reply := func(v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	switch p := r.URL.Path; {
	case p == "/api/external/v1/contracts":
		reply(map[string]any{"isProcessed": true, "result": map[string]any{"items": f.contracts, "total": len(f.contracts)}})
	case p == "/api/external/v1/staking/pools":
		pool := map[string]any{"id": testPoolID, "name": "Test pool", "tokenId": testTokenID, "contractId": "c-pool", "status": "ACTIVE"}
		reply(map[string]any{"isProcessed": true, "result": map[string]any{"items": []any{pool}, "total": 1}})
	case strings.HasPrefix(p, "/api/external/v1/allocations/") && strings.HasSuffix(p, "/merkle-proof"):
		proof, ok := f.proofs[strings.TrimSuffix(strings.TrimPrefix(p, "/api/external/v1/allocations/"), "/merkle-proof")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		reply(map[string]any{"isProcessed": true, "result": proof})
	case strings.HasPrefix(p, "/api/external/v1/allocations/") && strings.HasSuffix(p, "/claim"):
		var body struct{ Sender string }
		json.NewDecoder(r.Body).Decode(&body)
		f.claims++
		reply(map[string]any{"isProcessed": true, "result": map[string]any{
			"__type":     "EvmTransactionGroupParameters",
			"parameters": []any{map[string]any{"transactionId": "3f1a2b4c-0000-4000-8000-0000000000aa", "instructions": f.claim(common.HexToAddress(body.Sender))}},
		}})
	case p == "/api/v2/"+testPortalID+"/auth/signin":
		var body struct{ Wallet, Message, Signature string }
		json.NewDecoder(r.Body).Decode(&body)
		sig, err := hexutil.Decode(body.Signature)
		if err != nil {
			http.Error(w, `{"error":"Invalid signature"}`, http.StatusUnauthorized)
			return
		}
		if signer, err := siwe.RecoverSigner(body.Message, sig); err != nil || signer != common.HexToAddress(body.Wallet) {
			http.Error(w, `{"error":"Invalid signature"}`, http.StatusUnauthorized)
			return
		}
		f.token, f.wallet = "token-"+body.Wallet, common.HexToAddress(body.Wallet)
		reply(map[string]string{"accessToken": f.token, "expiration": isotime.Format(time.Now().Add(time.Hour))})
	case p == "/api/"+testPortalID+"/parameters/stake":
		if f.token == "" || r.Header.Get("Authorization") != "Bearer "+f.token {
			http.Error(w, `{"error":"UNAUTHORIZED"}`, http.StatusUnauthorized)
			return
		}
		amount, err := wallet.ParseUnits(r.URL.Query().Get("amount"))
		if err != nil || r.URL.Query().Get("stakingPoolId") != testPoolID {
			http.Error(w, `{"errors":[{"path":"amount","message":"bad"}]}`, http.StatusBadRequest)
			return
		}
		data, err := chain.PackStake(amount)
		if err != nil {
			f.t.Error(err)
		}
		params := map[string]string{"stakeId": "3f1a2b4c-0000-4000-8000-0000000000bb", "from": f.wallet.Hex(), "to": f.pool.Hex(),
			"data": hexutil.Encode(data), "platformFee": "0.01"}
		if f.stake != nil {
			f.stake(params)
		}
		reply(params)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeService) claimRequests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.claims
}

// sentStatus is one element of the JSON that --send prints, every field
// required.
type sentStatus struct {
	Hash          common.Hash `json:"hash"`
	Status        string      `json:"status"`
	Block         uint64      `json:"block"`
	GasUsed       uint64      `json:"gasUsed"`
	Confirmations uint64      `json:"confirmations"`
	RevertReason  string      `json:"revertReason"`
}

func decodeSent(t *testing.T, r result) []sentStatus {
	t.Helper()
	var out struct {
		Transactions []sentStatus `json:"transactions"`
	}
	decodeJSON(t, r, &out)
	var raw struct {
		Transactions []map[string]json.RawMessage `json:"transactions"`
	}
	json.Unmarshal([]byte(r.stdout), &raw)
	for _, tx := range raw.Transactions {
		if len(tx) != 6 {
			t.Errorf("a transaction has %d fields, want exactly hash, status, block, gasUsed, confirmations, revertReason", len(tx))
		}
	}
	return out.Transactions
}

// pinsOf pins the contracts, as `allot pin` would: each with the hash of
// the code it has on node now.
func pinsOf(t testing.TB, node wallet.Node, contracts map[wallet.PinKind][]common.Address) config.Pins {
	t.Helper()
	pins := config.Pins{CodeHashes: map[string]string{}}
	for kind, addrs := range contracts {
		for _, a := range addrs {
			hash, err := wallet.CodeHash(context.Background(), node, a)
			if err != nil {
				t.Fatal(err)
			}
			switch kind {
			case wallet.PinVester:
				pins.Vesters = append(pins.Vesters, a.Hex())
			case wallet.PinStaking:
				pins.Staking = append(pins.Staking, a.Hex())
			case wallet.PinToken:
				pins.Tokens = append(pins.Tokens, a.Hex())
			}
			pins.CodeHashes[a.Hex()] = hash.Hex()
		}
	}
	return pins
}

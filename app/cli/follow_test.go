package cli

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/chain"
	"allot/api/sandbox/chain/anviltest"
	"allot/api/sandbox/onchain"
	"allot/core/config"
	"allot/core/embedded"
	"allot/core/session"
	"allot/wallet"
)

// This file drives the CLI against a sandbox and the chain its world runs
// on, and checks that what the service says follows what was mined.

// chainFlow is a sandbox session with a demo wallet that signs.
type chainFlow struct {
	s      *session.Session
	wallet string // EIP-55
	pass   map[string]string
}

func (f chainFlow) run(t *testing.T, args ...string) result {
	t.Helper()
	r := runCLI(t, f.s, f.pass, append(args, sendFlags(t, f.s, args[0])...)...)
	return r
}

// sendFlags adds --yes to a command that sends, where the binary has it: a
// non-interactive send may have to say so.
func sendFlags(t *testing.T, s *session.Session, cmd string) []string {
	t.Helper()
	help := runCLI(t, s, nil, "help", cmd)
	if strings.Contains(help.stdout+help.stderr, "-yes") {
		return []string{"--yes"}
	}
	return nil
}

// allocationOf finds an allocation of the wallet with something claimable.
func (f chainFlow) allocationOf(t *testing.T) string {
	t.Helper()
	for _, id := range f.s.Fixtures.AllocationIDs {
		p, err := f.s.API.MerkleProof(context.Background(), id)
		if err == nil && strings.EqualFold(p.WalletAddress, f.wallet) {
			return id
		}
	}
	t.Fatalf("no allocation of %s in the sandbox", f.wallet)
	return ""
}

// claimable asks the service for the claim of everything claimable now,
// without signing, and reads the amount from its withdraw calldata.
func (f chainFlow) claimable(t *testing.T, allocation string) *big.Int {
	t.Helper()
	r := runCLI(t, f.s, nil, "claim", allocation, "--sender", f.wallet, "-o", "json")
	if r.code != 0 {
		t.Fatalf("claim without signing: exit %d\n%s", r.code, r.stderr)
	}
	var res struct {
		Parameters []struct {
			Instructions []struct {
				Data string `json:"data"`
			} `json:"instructions"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Parameters) != 1 || len(res.Parameters[0].Instructions) != 1 {
		t.Fatalf("claim result: %v\n%s", err, r.stdout)
	}
	data, err := hexutil.Decode(res.Parameters[0].Instructions[0].Data)
	if err != nil || len(data) < 4 {
		t.Fatalf("claim calldata: %v", err)
	}
	args, err := chain.Vester.ABI.Methods["withdraw"].Inputs.Unpack(data[4:])
	if err != nil {
		t.Fatal(err)
	}
	return args[0].(*big.Int)
}

type listedStake struct {
	ID            string `json:"id"`
	Amount        string `json:"amount"`
	Status        string `json:"status"`
	CreatedAt     string `json:"createdAt"`
	WalletAddress string `json:"walletAddress"`
}

func (f chainFlow) stakes(t *testing.T, pool string) (items []listedStake, total int) {
	t.Helper()
	r := runCLI(t, f.s, nil, "stakes", "--pool", pool, "-o", "json")
	if r.code != 0 {
		t.Fatalf("stakes: exit %d\n%s", r.code, r.stderr)
	}
	var list struct {
		Items []listedStake `json:"items"`
		Total int           `json:"total"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("stakes: %v\n%.300s", err, r.stdout)
	}
	return list.Items, list.Total
}

type listedPool struct {
	ID                 string `json:"id"`
	Status             string `json:"status"`
	TotalStaked        string `json:"totalStaked"`
	MinimumStakeAmount string `json:"minimumStakeAmount"`
}

func (f chainFlow) pools(t *testing.T) []listedPool {
	t.Helper()
	r := runCLI(t, f.s, nil, "pools", "-o", "json")
	if r.code != 0 {
		t.Fatalf("pools: exit %d\n%s", r.code, r.stderr)
	}
	var list struct {
		Items []listedPool `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("pools: %v", err)
	}
	return list.Items
}

func (f chainFlow) pool(t *testing.T, id string) listedPool {
	t.Helper()
	for _, p := range f.pools(t) {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("pool %s not listed", id)
	return listedPool{}
}

// claimAndStake claims one token of an allocation and stakes the minimum
// into the first active pool through the CLI, each sent and waited for,
// and checks that the service's answers follow at once: the claimable
// amount dropped by exactly the token, and the stake is listed with its
// amount and wallet and counted in the pool's total.
func claimAndStake(t *testing.T, f chainFlow) {
	allocation := f.allocationOf(t)
	before := f.claimable(t, allocation)
	one := big.NewInt(1_000_000_000_000_000_000)
	if before.Cmp(one) <= 0 {
		t.Fatalf("only %s claimable", before)
	}
	r := f.run(t, "claim", allocation, "--amount", "1", "--sign", "--account", f.wallet, "--send", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("claim statuses %+v\n%s", sent, r.stderr)
	}
	if after := f.claimable(t, allocation); new(big.Int).Sub(before, after).Cmp(one) != 0 {
		t.Errorf("claimable went from %s to %s after claiming %s", before, after, one)
	}

	var pool listedPool
	for _, p := range f.pools(t) {
		if p.Status == "ACTIVE" {
			pool = p
			break
		}
	}
	if pool.ID == "" {
		t.Fatal("no active pool")
	}
	_, count := f.stakes(t, pool.ID)
	r = f.run(t, "stake", "--pool", pool.ID, "--amount", pool.MinimumStakeAmount, "--account", f.wallet, "--send", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("stake: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) == 0 || sent[len(sent)-1].Status != "success" {
		t.Fatalf("stake statuses %+v\n%s", sent, r.stderr)
	}
	items, total := f.stakes(t, pool.ID)
	if total != count+1 || len(items) != total {
		t.Fatalf("%d stakes listed (total %d) after one more, had %d", len(items), total, count)
	}
	last := items[len(items)-1]
	minimum := decimal.RequireFromString(pool.MinimumStakeAmount)
	if !decimal.RequireFromString(last.Amount).Equal(minimum) || common.HexToAddress(last.WalletAddress) != common.HexToAddress(f.wallet) || last.Status != "STAKED" {
		t.Errorf("the new stake is listed as %+v, want %s from %s", last, minimum, f.wallet)
	}
	grown := decimal.RequireFromString(f.pool(t, pool.ID).TotalStaked).Sub(decimal.RequireFromString(pool.TotalStaked))
	if !grown.Equal(minimum) {
		t.Errorf("the pool's total grew by %s, staked %s", grown, minimum)
	}
}

// TestSandboxFollowsItsChain runs the claim and the stake on the embedded
// sandbox's in-process chain.
func TestSandboxFollowsItsChain(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	s := sandboxSession(t)
	w := s.Fixtures.Wallets[1]
	claimAndStake(t, chainFlow{s: s, wallet: w.Address, pass: map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}})
}

func TestFailuresSayReorged(t *testing.T) {
	t.Parallel()
	err := failures([]string{"claim"}, []wallet.Status{{State: wallet.StateDropped, Reorged: true}})
	if err == nil || !strings.Contains(err.Error(), "reorged: not mined any more, and dropped") {
		t.Errorf("failures = %v", err)
	}
}

// TestSandboxOnAnvilFollowsItsChain deploys the sandbox's world on
// foundry's anvil, as `allot sandbox --chain-rpc` does, and runs the same
// claim and stake through the CLI as on the in-process chain, with a
// profile that names anvil as its rpc_url.
func TestSandboxOnAnvilFollowsItsChain(t *testing.T) {
	t.Parallel()
	url := anviltest.Start(t)
	ctx := context.Background()
	key, err := chain.ParseKey([]byte(anviltest.Keys[0]))
	if err != nil {
		t.Fatal(err)
	}
	node, err := chain.Dial(ctx, url, key)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	publicURL := "http://" + hs.Listener.Addr().String()
	sb, err := onchain.Start(ctx, onchain.Options{Sandbox: sandbox.Options{KeystoreDir: t.TempDir(), PublicURL: publicURL}, Chain: node})
	if err != nil {
		node.Close()
		hs.Close()
		t.Fatal(err)
	}
	hs.Config.Handler = sb.Server
	hs.Start()
	t.Cleanup(func() { hs.Close(); sb.Close() })

	fx := embedded.Fixtures(sb.Server.Fixtures())
	if fx.ChainID != node.ChainID() || fx.ChainID != 31337 {
		t.Errorf("fixtures name chain %d, the node is %d", fx.ChainID, node.ChainID())
	}
	for _, d := range sb.Deployed() {
		if code, err := node.Client().CodeAt(ctx, d.Address, nil); err != nil || len(code) == 0 {
			t.Errorf("%s %s at %s has no code on anvil (%v)", d.Kind, d.Name, d.Address.Hex(), err)
		}
	}
	rpc, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rpc.Close)
	client, err := api.New(api.Config{BaseURL: fx.BaseURL, PortalURL: fx.PortalURL, PortalID: fx.PortalID, APIKey: fx.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	// The profile pins what was deployed on anvil, as `allot sandbox
	// --chain-rpc` prints it: signing fails closed without.
	pins, err := embedded.Pins(ctx, sb)
	if err != nil {
		t.Fatal(err)
	}
	s := &session.Session{
		Name: "anvil",
		Profile: config.Profile{Name: "anvil", BaseURL: fx.BaseURL, PortalURL: fx.PortalURL, PortalID: fx.PortalID,
			ChainID: fx.ChainID, Keystore: fx.KeystoreDir, SigninDomain: fx.SigninDomain, Tokens: fx.TokenIDs, RPCURL: url, Pins: pins},
		API:      client,
		TokenIDs: fx.TokenIDs,
		Requests: session.NewRequestLog(),
		StateDir: t.TempDir(),
		Now:      time.Now,
		Chain:    rpc,
		Fixtures: &fx,
	}
	w := fx.Wallets[2]
	claimAndStake(t, chainFlow{s: s, wallet: w.Address, pass: map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}})
}

package onchain

import (
	"context"
	"errors"
	"math/big"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/chain"
	"allot/wallet"
	"allot/wallet/keystore"
)

type harness struct {
	sb     *Sandbox
	client *api.Client
	fx     sandbox.Fixtures
	keys   *keystore.Store
}

func start(t *testing.T) *harness {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	t.Cleanup(srv.Close)
	sb, err := Start(context.Background(), Options{Sandbox: sandbox.Options{PublicURL: srv.URL, KeystoreDir: t.TempDir()}, MineInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	srv.Config.Handler = sb.Server
	fx := sb.Server.Fixtures()
	client, err := api.New(api.Config{BaseURL: fx.BaseURL, PortalID: fx.PortalID, APIKey: fx.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keystore.Open(fx.KeystoreDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range fx.Wallets {
		if err := keys.Unlock(common.HexToAddress(w.Address), w.Passphrase); err != nil {
			t.Fatal(err)
		}
	}
	return &harness{sb: sb, client: client, fx: fx, keys: keys}
}

// send builds, signs and sends the calls the signing policy approved from
// the wallet, mines, and returns each transaction's final status.
func (h *harness) send(t *testing.T, from common.Address, approved *wallet.Approval, known map[common.Address]string) []wallet.Status {
	t.Helper()
	ctx := context.Background()
	node := h.sb.Chain.Client()
	drafts, err := wallet.Build(ctx, node, approved, wallet.BuildOptions{ChainID: h.fx.ChainID, From: from, Known: known})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	var txs []*types.Transaction
	for _, d := range drafts {
		tx, err := d.Sign(h.keys.Signer(from))
		if err != nil {
			t.Fatalf("sign %s: %v", d.Summary.Title(), err)
		}
		if err := wallet.Send(ctx, node, tx); err != nil {
			t.Fatalf("send: %v", err)
		}
		txs = append(txs, tx)
	}
	var out []wallet.Status
	for _, tx := range txs {
		tr := wallet.Track(ctx, node, tx, wallet.TrackOptions{Poll: 10 * time.Millisecond, Timeout: 20 * time.Second})
		for {
			h.sb.Chain.Commit()
			select {
			case <-tr.Done():
			case <-time.After(20 * time.Millisecond):
				continue
			}
			break
		}
		st, err := tr.Wait(ctx)
		if err != nil {
			t.Fatalf("track: %v", err)
		}
		out = append(out, st)
	}
	return out
}

func (h *harness) known(t *testing.T) map[common.Address]string {
	t.Helper()
	contracts, err := h.client.Contracts(context.Background(), h.fx.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	return wallet.KnownContracts(contracts.Items)
}

func TestContractsAreOnTheChain(t *testing.T) {
	h := start(t)
	contracts, err := h.client.Contracts(context.Background(), h.fx.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range contracts.Items {
		code, err := h.sb.Chain.Client().CodeAt(context.Background(), common.HexToAddress(c.Address), nil)
		if err != nil || len(code) == 0 {
			t.Errorf("contract %s at %s has no code on the chain", c.Name, c.Address)
		}
	}
	vester := contracts.Items[0]
	if vester.Balance.Sign() <= 0 {
		t.Errorf("vester %s balance %s, want its funding", vester.Name, vester.Balance.String())
	}
}

func TestClaimEndToEnd(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	w0 := common.HexToAddress(h.fx.Wallets[0].Address)
	alloc := h.fx.AllocationIDs[0]

	claim, err := h.client.Claim(ctx, alloc, api.ClaimRequest{Sender: w0.Hex()})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := wallet.ClaimCalls(claim)
	if err != nil {
		t.Fatal(err)
	}
	summary := wallet.DecodeCall(ctx, calls[0], wallet.DecodeOptions{Signer: w0, ChainID: h.fx.ChainID, Known: h.known(t), Chain: h.sb.Chain.Client()})
	if summary.Method != "withdraw" || len(summary.Warnings) != 0 {
		t.Fatalf("clear-signing summary: %s %v", summary.Method, summary.Warnings)
	}
	amount := summary.Withdraw.Amount
	vester := calls[0].To
	token := h.tokenOf(t, vester)
	before, _ := h.sb.Chain.BalanceOf(ctx, token, w0)

	res, err := h.client.MerkleProof(ctx, alloc)
	if err != nil {
		t.Fatal(err)
	}
	proof, err := wallet.ProofFromAPI(res)
	if err != nil {
		t.Fatal(err)
	}
	contracts, err := h.client.Contracts(ctx, h.fx.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	approved, err := wallet.CheckClaim(ctx, h.sb.Chain.Client(), wallet.ClaimPolicy{AllocationID: alloc, Signer: w0, ChainID: h.fx.ChainID,
		Proof: proof, Candidates: wallet.VesterCandidates(contracts.Items)}, calls)
	if err != nil {
		t.Fatalf("the signing policy refuses the sandbox's own claim: %v", err)
	}
	st := h.send(t, w0, approved, h.known(t))
	if st[0].State != wallet.StateSuccess {
		t.Fatalf("claim: %+v", st[0])
	}
	after, _ := h.sb.Chain.BalanceOf(ctx, token, w0)
	if got := new(big.Int).Sub(after, before); got.Cmp(amount) != 0 {
		t.Errorf("balance grew by %s, claimed %s", got, amount)
	}

	// The sandbox reads the withdrawal from the block that mined it: nothing
	// is claimable now, so a claim of any amount is refused at once.
	one, _ := api.ParseAmount("1")
	_, err400 := h.client.Claim(ctx, alloc, api.ClaimRequest{Sender: w0.Hex(), Amount: &one})
	var ve *api.ValidationError
	if !errors.As(err400, &ve) || !ve.Remote {
		t.Errorf("claiming more than unlocked: %v, want a 400", err400)
	}

	// A forged proof sent straight to the vester reverts with InvalidMerkleProof.
	forged := calls[0]
	forged.Data = append([]byte(nil), forged.Data...)
	forged.Data[len(forged.Data)-1] ^= 0xff // the last proof sibling
	_, err = h.sb.Chain.Client().EstimateGas(ctx, callMsg(w0, forged))
	data, ok := chain.RevertData(err)
	if !ok {
		t.Fatalf("forged proof: %v", err)
	}
	rev, err := chain.DecodeRevert(data)
	if err != nil || rev.Error() != "InvalidMerkleProof()" {
		t.Errorf("forged proof reverted with %v (%v)", rev, err)
	}
}

func TestStakeWithApprove(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	w1 := common.HexToAddress(h.fx.Wallets[1].Address)
	portal, err := wallet.NewPortal(wallet.PortalConfig{Domain: h.fx.SigninDomain, URI: h.fx.PortalURL, ChainID: h.fx.ChainID}, h.client)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := portal.Prepare(w1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := portal.SignIn(ctx, msg.String(), h.keys.Signer(w1)); err != nil {
		t.Fatal(err)
	}
	pools, err := h.client.AllPools(ctx, h.fx.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	var pool api.Pool
	for _, p := range pools.Items {
		if p.Status == "ACTIVE" {
			pool = p
			break
		}
	}
	amount, _ := api.ParseAmount(pool.MinimumStakeAmount.Add(pool.MinimumStakeAmount.Decimal).String())
	params, err := portal.StakeParameters(ctx, pool.ID, amount)
	if err != nil {
		t.Fatal(err)
	}
	stake, err := wallet.StakeCall(params)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := wallet.PlanStake(ctx, h.sb.Chain.Client(), stake)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Approve == nil {
		t.Fatal("a first stake needs an approve")
	}
	var poolContract common.Address
	contracts, err := h.client.Contracts(ctx, h.fx.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range contracts.Items {
		if c.ID == pool.ContractID {
			poolContract = common.HexToAddress(c.Address)
		}
	}
	asked, err := wallet.ParseUnits(amount.String())
	if err != nil {
		t.Fatal(err)
	}
	approved, err := wallet.CheckStake(ctx, h.sb.Chain.Client(), wallet.StakePolicy{PoolID: pool.ID, Signer: w1, ChainID: h.fx.ChainID,
		Amount: asked, Pool: poolContract}, plan.Calls())
	if err != nil {
		t.Fatalf("the signing policy refuses the sandbox's own stake: %v", err)
	}
	statuses := h.send(t, w1, approved, h.known(t))
	if len(statuses) != 2 || statuses[0].State != wallet.StateSuccess || statuses[1].State != wallet.StateSuccess {
		t.Fatalf("approve, stake: %+v", statuses)
	}
	stakes, err := h.sb.Chain.Stakes(ctx, stake.To)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range stakes {
		found = found || (s.Staker == w1 && s.Amount.Cmp(plan.Amount) == 0)
	}
	if !found {
		t.Errorf("the stake of %s is not on the chain", w1.Hex())
	}
	// The service lists it as soon as it is mined.
	listed, err := h.client.Stakes(ctx, api.StakesRequest{StakingPoolID: pool.ID, WalletAddress: w1.Hex()})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(listed.Items); n == 0 || !listed.Items[n-1].Amount.Equal(amount.Decimal) || !strings.EqualFold(listed.Items[n-1].WalletAddress, w1.Hex()) {
		t.Errorf("the service lists the stakes of %s as %+v", w1.Hex(), listed.Items)
	}
}

func (h *harness) tokenOf(t *testing.T, vester common.Address) common.Address {
	t.Helper()
	for id, addr := range h.sb.addrs {
		if addr == vester {
			for _, c := range h.sb.world.Contracts {
				if c.ID == id {
					return h.sb.addrs[c.TokenID]
				}
			}
		}
	}
	t.Fatalf("no token for vester %s", vester.Hex())
	return common.Address{}
}

func callMsg(from common.Address, c wallet.Call) ethereum.CallMsg {
	return ethereum.CallMsg{From: from, To: &c.To, Value: c.Value, Data: c.Data}
}

// BenchmarkStart is the whole start-up of the embedded default: seed, chain,
// every deployment and the service. Target: under a second.
func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		sb, err := Start(context.Background(), Options{Sandbox: sandbox.Options{KeystoreDir: b.TempDir()}, MineInterval: -1})
		if err != nil {
			b.Fatal(err)
		}
		sb.Close()
	}
}

package app

import (
	"context"
	"math/big"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/api"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/core/session/sessiontest"
	"allot/wallet"
	"allot/wallet/keystore"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/safetest"
)

// TestSafeProposalSignedAndExecutedInDashboard: a 2-of-3 Safe of demo
// wallets 0, 1 and 2 (the real Safe 1.4.1 on the sandbox's chain) stakes;
// owner 0 proposes and signs as `allot stake --account SAFE --owner` does
// (the session's code the CLI runs), which leaves the proposal in the
// state directory. In the dashboard, Transactions' P lists it as "1 of 2
// signatures"; owner 1 unlocks their key, opens it, signs it after the
// policy's review, and it is ready; x executes it with the same key,
// through the review and the question, followed until mined; the page
// and the list then say executed, the journal holds the exec, and the
// service lists the Safe's stake.
func TestSafeProposalSignedAndExecutedInDashboard(t *testing.T) {
	t.Parallel()
	safetest.Dir(t, safetest.Contracts) // skips before the sandbox starts
	h := sessiontest.NewHostile(t, t.TempDir())
	s, fx := h.Session, h.Session.Fixtures
	d := h.SafeDeployer(t)
	safes := safetest.DeploySafes(t, d)
	owners := []common.Address{common.HexToAddress(fx.Wallets[0].Address), common.HexToAddress(fx.Wallets[1].Address), common.HexToAddress(fx.Wallets[2].Address)}
	treasury := safes.Create(t, d, safes.Singleton, owners, 2, 1)
	prop := proposeStake(t, s, d, treasury, safes.MultiSendAddr)

	f := newFlowOn(t, s)
	f.runes("4").runes("P").wait("Safe proposals").wait("1 of 2 signatures")
	f.runes("u").wait("enter: type the passphrase").key(tea.KeyDown).key(tea.KeyEnter).wait("Passphrase").
		typ(fx.Wallets[1].Passphrase).key(tea.KeyEnter).wait("unlocked " + owners[1].Hex())
	f.wait("1 of 2 signatures").key(tea.KeyEnter).wait(prop.Hashes.SafeTx.Hex()).wait("s  sign as an owner")
	f.runes("s").wait("Sign the safeTxHash")
	f.runes("y").wait("Signed: 2 of 2 signatures").wait("ready")
	f.runes("x").wait("Sign and send").runes("y").wait("executed by transaction") // the page's state, once mined
	f.key(tea.KeyEsc).wait("executed")
	f.quit()

	sigs := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindSignature, "safe exec")
	if len(sigs) != 1 {
		t.Errorf("%d executions journaled, want 1", len(sigs))
	}
	stakes, err := s.API.Stakes(context.Background(), api.StakesRequest{StakingPoolID: prop.Act.Subject, WalletAddress: treasury.Hex()})
	if err != nil || len(stakes.Items) != 1 {
		t.Errorf("the service's stakes of the Safe: %+v, %v", stakes, err)
	}
	after, err := s.ReadProposal(context.Background(), prop.Hashes.SafeTx.Hex()+".json")
	if err != nil || after.State != proposal.Executed || len(after.Proposal.Signatures) != 2 {
		t.Fatalf("the proposal after: %+v, %v", after, err)
	}
}

// proposeStake funds the Safe with a pool's minimum stake and ether for
// its fee, and makes the stake's proposal signed by owner 0 as the CLI
// does, through multiSend (the canonical address has no code on the
// sandbox's chain).
func proposeStake(t *testing.T, s *session.Session, d *safetest.Deployer, treasury, multiSend common.Address) *proposal.Proposal {
	t.Helper()
	ctx, fx := context.Background(), s.Fixtures
	pool, amount, sp := fundSafeStake(t, s, d, treasury)
	node, err := s.SafeNode()
	if err != nil {
		t.Fatal(err)
	}
	info, err := safe.Read(ctx, node, treasury)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := wallet.SafeStake(ctx, s.Chain, s.Profile.ChainID, treasury, sp.Pool, amount)
	if err != nil {
		t.Fatal(err)
	}
	var calls []safe.InnerCall
	for _, c := range plan.Calls() {
		calls = append(calls, safe.InnerCall{To: c.To, Value: c.Value, Data: c.Data})
	}
	act := proposal.Act{Op: proposal.OpStake, Subject: pool.ID, Amount: amount}
	p, err := proposal.New(s.Profile.ChainID, info, act, calls, multiSend)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckSafeTx(ctx, info, act, calls, multiSend, p.Tx); err != nil {
		t.Fatalf("the policy's review of the proposal: %v", err)
	}
	store, err := keystore.Open(filepath.Dir(fx.Wallets[0].KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	owner := common.HexToAddress(fx.Wallets[0].Address)
	if err := store.Unlock(owner, fx.Wallets[0].Passphrase); err != nil {
		t.Fatal(err)
	}
	if err := session.SignSafeTx(nil, store, owner, p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveProposal(p, ""); err != nil {
		t.Fatal(err)
	}
	return p
}

// fundSafeStake funds the Safe treasury with the minimum stake of the
// token's first active pool and ether for its fee: the pool, the amount
// in base units and the stake's policy.
func fundSafeStake(t *testing.T, s *session.Session, d *safetest.Deployer, treasury common.Address) (api.Pool, *big.Int, wallet.StakePolicy) {
	t.Helper()
	ctx, fx := context.Background(), s.Fixtures
	pools, err := s.API.AllPools(ctx, fx.TokenIDs[0])
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
	amount, err := api.BaseUnits(pool.MinimumStakeAmount.Decimal)
	if err != nil {
		t.Fatal(err)
	}
	pins, err := s.SigningPins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := s.StakePolicy(ctx, pins, pool, treasury, amount)
	if err != nil {
		t.Fatal(err)
	}
	token, err := wallet.StakingToken(ctx, s.Chain, sp.Pool)
	if err != nil {
		t.Fatal(err)
	}
	transfer := append(hexutil.MustDecode("0xa9059cbb"), common.LeftPadBytes(treasury.Bytes(), 32)...)
	d.Send(t, &token, append(transfer, common.LeftPadBytes(amount.Bytes(), 32)...))
	d.SendValue(t, &treasury, nil, new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil))

	return pool, amount, sp
}

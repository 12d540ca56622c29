package cli

import (
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"allot/api"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
)

// These tests call the commands' resolve, plan and act steps directly,
// with their args structs filled in as the flags would fill them.

// testEnv is the env a command runs in on s, as runCLI's: no terminal on
// stdin, the environment environ, stderr kept.
func testEnv(s *session.Session, environ map[string]string) (*env, *strings.Builder) {
	var stdout, stderr strings.Builder
	return &env{IO: IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return environ[k] }}, sess: s}, &stderr
}

// TestStakeResolveRefusesBeforeAnything: what resolve refuses it refuses
// as a usage mistake before the session is opened for a write: no
// journal, no request applied.
func TestStakeResolveRefusesBeforeAnything(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	fx := s.Fixtures
	account := fx.Wallets[0].Address
	for _, tc := range []struct {
		name string
		args stakeArgs
		want string
	}{
		{"19 decimals", stakeArgs{pool: fx.PoolIDs[0], amount: "1.1234567890123456789", account: account}, "at most 18 decimals"},
		{"beyond a uint256", stakeArgs{pool: fx.PoolIDs[0], amount: beyondUint256, account: account}, "do not fit a uint256"},
		{"no amount", stakeArgs{pool: fx.PoolIDs[0], account: account}, "--amount X is required"},
		{"a word for an amount", stakeArgs{pool: fx.PoolIDs[0], amount: "ten", account: account}, "--amount"},
		{"no pool", stakeArgs{amount: "1", account: account}, "--pool ID is required"},
		{"no account", stakeArgs{pool: fx.PoolIDs[0], amount: "1"}, "--account ADDR is required"},
		{"an account that is no address", stakeArgs{pool: fx.PoolIDs[0], amount: "1", account: "0x12"}, "--account"},
		{"--wait without --send", stakeArgs{pool: fx.PoolIDs[0], amount: "1", account: account, tx: txFlags{wait: true}}, "--wait needs --send"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := testEnv(s, nil)
			o, err := tc.args.resolve(context.Background(), e)
			var usage usageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("resolve: %+v, %v; want a usage error saying %q", o, err, tc.want)
			}
			if e.rec != nil {
				t.Error("the journal was opened: the session was opened for the stake")
			}
		})
	}
	if applied := s.Applied(); len(applied) != 0 {
		t.Errorf("the service applied %d writes, want none", len(applied))
	}
}

// TestStakeResolveFindsThePoolByName: --pool may name one of the token's
// pools; resolve gives the pool itself, and refuses a name no pool has.
func TestStakeResolveFindsThePoolByName(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	want := firstPool(t, s)
	w := s.Fixtures.Wallets[0]
	e, _ := testEnv(s, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase})
	o, err := stakeArgs{pool: want.Name, amount: "1", account: w.Address}.resolve(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	defer o.acct.lock()
	if o.pool.ID != want.ID || o.asked.Cmp(big.NewInt(1e18)) != 0 || o.acct.address.Hex() != w.Address {
		t.Errorf("resolved pool %s, %s base units, account %s; want pool %s, 1e18, %s", o.pool.ID, o.asked, o.acct.address.Hex(), want.ID, w.Address)
	}
	_, err = stakeArgs{pool: "No Such Pool", amount: "1", account: w.Address}.resolve(context.Background(), e)
	var usage usageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "see 'allot pools'") {
		t.Errorf("a name no pool has: %v, want a usage error that points to allot pools", err)
	}
}

// firstPool is the first pool of the session's first token.
func firstPool(t *testing.T, s *session.Session) api.Pool {
	t.Helper()
	pools, err := s.API.AllPools(context.Background(), s.TokenIDs[0])
	if err != nil || len(pools.Items) == 0 {
		t.Fatalf("the pools of %s: %v, %v", s.TokenIDs[0], pools, err)
	}
	return pools.Items[0]
}

// TestStakePlanApprovesThenStakes: with no allowance, the plan of a stake
// is an approve of exactly the amount on the pool's token, then the stake
// on the pool, and nothing is signed by planning it.
func TestStakePlanApprovesThenStakes(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	ctx := context.Background()
	e, _ := testEnv(f.sess, map[string]string{"ALLOT_PASSPHRASE": testPassphrase})
	o, err := stakeArgs{pool: testPoolID, amount: "10", account: f.user.Hex()}.resolve(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	defer o.acct.lock()
	portal, _, err := e.signIn(ctx, o.s, o.acct)
	if err != nil {
		t.Fatal(err)
	}
	nonce, err := f.sess.Chain.PendingNonceAt(ctx, f.user)
	if err != nil {
		t.Fatal(err)
	}
	p, err := o.plan(ctx, portal)
	if err != nil {
		t.Fatal(err)
	}
	b := p.batch
	if strings.Join(b.ops, ",") != "approve,stake" || len(b.calls) != 2 || b.calls[0].To != f.token || b.calls[1].To != f.pool {
		t.Fatalf("plan %v to %v, want approve on the token %s, then stake on the pool %s", b.ops, b.calls, f.token, f.pool)
	}
	if p.chain.Allowance.Sign() != 0 || p.chain.Amount.Cmp(ether(10)) != 0 || b.subject != testPoolID || b.op != "stake" {
		t.Errorf("allowance %s, amount %s, subject %s, op %s; want 0, 10 tokens, the pool, stake", p.chain.Allowance, p.chain.Amount, b.subject, b.op)
	}
	if _, ok := b.known[f.token]; !ok {
		t.Errorf("the pool's token %s is not among the contracts the review names", f.token)
	}
	if after, _ := f.sess.Chain.PendingNonceAt(ctx, f.user); after != nonce {
		t.Errorf("planning moved the account's nonce from %d to %d", nonce, after)
	}
	all := journaltest.Entries(t, f.sess.StateDir)
	if n := len(journaltest.Of(all, journal.KindSignature, "approve")) + len(journaltest.Of(all, journal.KindSignature, "stake")); n != 0 {
		t.Errorf("planning journaled %d signatures, want none", n)
	}
}

// TestStakesResolve: the stakes listing's pool by name is the request's
// pool id; a malformed --wallet is refused before any session is opened.
func TestStakesResolve(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	want := firstPool(t, s)
	e, _ := testEnv(s, nil)
	_, req, pool, err := stakesArgs{pool: strings.ToUpper(want.Name)}.resolve(context.Background(), e)
	if err != nil || req.StakingPoolID != want.ID || pool.TokenID != want.TokenID {
		t.Errorf("resolve %q: pool %q, %v; want %s", strings.ToUpper(want.Name), req.StakingPoolID, err, want.ID)
	}
	// No session: a resolve that opened one would fail otherwise.
	e.sess = nil
	e.configPath = filepath.Join(t.TempDir(), "missing.toml")
	for _, a := range []stakesArgs{{pool: want.ID, wallet: "0x12"}, {pool: want.Name, wallet: "0x12"}, {}} {
		_, _, _, err := a.resolve(context.Background(), e)
		var usage usageError
		if !errors.As(err, &usage) {
			t.Errorf("%+v: %v, want a usage error", a, err)
		}
		if e.sess != nil {
			t.Errorf("%+v: a session was opened", a)
		}
	}
}

// pngFile writes a PNG-headed file of content to a temporary folder.
func pngFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("\x89PNG\r\n\x1a\n"+content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUploadResolveAndPlan: the name is checked before the file is read;
// the plan stores the bytes under the name with the content's hash, or
// under the name itself with --replace.
func TestUploadResolveAndPlan(t *testing.T) {
	t.Parallel()
	path := pngFile(t, "logo.png", "first")
	for _, tc := range []struct {
		args uploadArgs
		want string
	}{
		{uploadArgs{path: path}, "--portal is required"},
		{uploadArgs{path: path, portal: "p", yes: true}, "--yes needs --replace"},
		{uploadArgs{path: path, portal: "p", name: "my logo.png"}, "--name my-logo.png would be"},
		{uploadArgs{path: filepath.Join(filepath.Dir(path), "no such file"), portal: "p"}, "pass --name no-such-file"},
	} {
		if _, err := tc.args.resolve(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.args, err, tc.want)
		}
	}

	a := uploadArgs{path: path, portal: "p", name: "brand.png"}
	name, err := a.resolve()
	if err != nil || name != "brand.png" {
		t.Fatalf("resolve with --name: %q, %v", name, err)
	}
	u, err := a.plan(name)
	if err != nil {
		t.Fatal(err)
	}
	u.file.Close()
	if !regexp.MustCompile(`^brand-[0-9a-f]{8}\.png$`).MatchString(u.request.FileName) || u.name != "brand.png" ||
		u.request.ContentType != "image/png" || u.request.PortalSlug != "p" || u.size != int64(len("\x89PNG\r\n\x1a\nfirst")) {
		t.Errorf("plan: %+v, stored as %s, size %d; want brand-HASH.png, an image/png on p named brand.png", u.request, u.name, u.size)
	}
	a.replace = true
	if u, err = a.plan(name); err != nil {
		t.Fatal(err)
	}
	u.file.Close()
	if u.request.FileName != "brand.png" {
		t.Errorf("plan with --replace stores under %s, want brand.png", u.request.FileName)
	}
}

// TestUploadRefusesTooLargeBeforeAsking: a file the service would refuse
// is refused before --replace asks to replace anything, and nothing is
// sent.
func TestUploadRefusesTooLargeBeforeAsking(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	path := pngFile(t, "logo.png", "")
	// Sparse: the bytes beyond the header are never read with --replace.
	if err := os.Truncate(path, api.MaxCreativeSize+1); err != nil {
		t.Fatal(err)
	}
	e, _ := testEnv(s, nil)
	err := e.uploadCreative(context.Background(), uploadArgs{path: path, portal: s.Fixtures.PortalSlug, replace: true})
	if err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Errorf("a file too large, with --replace: %v, want it refused as too large", err)
	}
	if e.rec != nil || len(s.Applied()) != 0 {
		t.Errorf("the upload was begun: journal opened %v, %d writes applied", e.rec != nil, len(s.Applied()))
	}
}

// TestClaimResolve: the claim is built for the account that signs it
// (--sender or --account standing for the other), a signing flag needs
// --sign, and the amount asked is carried in base units for the policy.
func TestClaimResolve(t *testing.T) {
	t.Parallel()
	const (
		alice = "0x1111111111111111111111111111111111111111"
		bob   = "0x2222222222222222222222222222222222222222"
	)
	e, _ := testEnv(nil, nil)
	o, err := claimArgs{allocation: testAllocation, amount: "1.5", sign: true, account: alice}.resolve(e)
	if err != nil {
		t.Fatal(err)
	}
	if o.req.Sender != alice || o.signer.Hex() != alice || o.asked.String() != "1500000000000000000" || o.allocation != testAllocation {
		t.Errorf("resolved %+v, want sender and signer %s, 1.5e18 asked", o, alice)
	}
	if o, err := (claimArgs{allocation: testAllocation, sender: bob}).resolve(e); err != nil || o.asked != nil || o.req.Amount != nil {
		t.Errorf("a claim of all, unsigned: %+v, %v; want no amount", o, err)
	}
	for _, tc := range []struct {
		args claimArgs
		want string
	}{
		{claimArgs{allocation: testAllocation, sender: alice, sign: true, account: bob}, "--sender " + alice + " is not the signing --account " + bob},
		{claimArgs{allocation: testAllocation, sender: alice, tx: txFlags{send: true}}, "claim: --send needs --sign"},
		{claimArgs{allocation: testAllocation, sender: alice, ks: keystoreFlags{dir: "ks"}}, "claim: --keystore needs --sign"},
		{claimArgs{allocation: testAllocation, sign: true, account: alice, tx: txFlags{yes: true}}, "--yes needs --send"},
		{claimArgs{allocation: testAllocation, sender: alice, amount: "1.1234567890123456789"}, "at most 18 decimals"},
		{claimArgs{allocation: testAllocation, sender: alice, country: "Narnia"}, "--country"},
		{claimArgs{allocation: "not-an-id", sender: alice}, "allocation id"},
		{claimArgs{allocation: testAllocation, sender: alice, sign: true, account: "0x12"}, "--account"},
	} {
		_, err := tc.args.resolve(e)
		var usage usageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
}

// TestTxResolve: a field's flag beside --body is refused before the file
// is read; built from flags, a request's token named by symbol becomes
// its id, and nothing is sent or journaled to resolve it.
func TestTxResolve(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	fx := s.Fixtures
	e, _ := testEnv(s, nil)
	a := txArgs{sub: "fund", action: api.ActionFundDistribution, body: filepath.Join(t.TempDir(), "missing.json"), fields: []string{"--token", "--test"}}
	if _, err := a.resolve(context.Background(), e); err == nil || !strings.Contains(err.Error(), "drop --token --test") {
		t.Errorf("--body beside field flags: %v, want them named", err)
	}
	id := s.TokenIDs[0]
	name, ok := s.TokenName(id)
	if !ok || name.Symbol == "" {
		t.Fatalf("the sandbox's token %s has no symbol", id)
	}
	amount, err := api.ParseAmount("2.5")
	if err != nil {
		t.Fatal(err)
	}
	a = txArgs{sub: "fund", action: api.ActionFundDistribution, build: func() (api.TransactionRequest, error) {
		return &api.FundDistributionRequest{TokenID: strings.ToLower(name.Symbol), Data: []api.FundItem{{AllocationID: fx.AllocationIDs[0], Amount: amount}}}, nil
	}}
	req, err := a.resolve(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if got := req.(*api.FundDistributionRequest).TokenID; got != id {
		t.Errorf("--token %s resolved to %s, want %s", strings.ToLower(name.Symbol), got, id)
	}
	if e.rec != nil || len(s.Applied()) != 0 {
		t.Errorf("resolving began the write: journal opened %v, %d writes applied", e.rec != nil, len(s.Applied()))
	}
}

package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/wallet/keystore"
	"allot/wallet/siwe"

	"github.com/ethereum/go-ethereum/common"
)

// testClock is a settable clock shared by the sandbox and the portal.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// portalEnv is the sandbox served over loopback with a client and a portal
// of the same profile.
type portalEnv struct {
	srv    *sandbox.Server
	fx     sandbox.Fixtures
	client *api.Client
	portal *Portal
	clock  *testClock
}

var sandboxWorld = sync.OnceValues(func() (*sandbox.World, error) {
	return sandbox.Seed(time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC))
})

func newPortalEnv(t testing.TB) *portalEnv {
	t.Helper()
	world, err := sandboxWorld()
	if err != nil {
		t.Fatal(err)
	}
	e := &portalEnv{clock: &testClock{t: time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)}}
	hs := httptest.NewUnstartedServer(nil)
	url := "http://" + hs.Listener.Addr().String()
	e.srv, err = sandbox.New(sandbox.Options{PublicURL: url, Clock: e.clock.Now, World: world, KeystoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = e.srv
	hs.Start()
	t.Cleanup(func() {
		hs.Close()
		e.srv.Close()
	})
	e.fx = e.srv.Fixtures()
	e.client, err = api.New(api.Config{BaseURL: url, PortalURL: e.fx.PortalURL, PortalID: e.fx.PortalID, APIKey: e.fx.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	e.portal, err = NewPortal(PortalConfig{Domain: e.fx.SigninDomain, URI: e.fx.PortalURL, ChainID: e.fx.ChainID, Statement: "Sign in to the claim portal."}, e.client)
	if err != nil {
		t.Fatal(err)
	}
	e.portal.now = e.clock.Now
	return e
}

// wallet returns demo wallet i as a signer.
func (e *portalEnv) wallet(i int) *keySigner {
	return &keySigner{key: e.srv.World().Wallets[i].Key}
}

func TestPrepare(t *testing.T) {
	e := newPortalEnv(t)
	w := e.wallet(0)
	m, err := e.portal.Prepare(w.Address())
	if err != nil {
		t.Fatal(err)
	}
	if m.Domain != e.fx.SigninDomain || m.URI != e.fx.PortalURL || m.ChainID != e.fx.ChainID || m.Address != w.Address() ||
		!m.IssuedAt.Equal(e.clock.Now()) || m.ExpirationTime == nil || !m.ExpirationTime.Equal(e.clock.Now().Add(siwe.Lifetime)) {
		t.Errorf("message %+v", m)
	}
	text := m.String()
	if !strings.HasPrefix(text, e.fx.SigninDomain+" wants you to sign in with your Ethereum account:\n"+w.Address().Hex()+"\n\nSign in to the claim portal.\n") {
		t.Errorf("text:\n%s", text)
	}
	if _, err := e.portal.Check(text, w.Address()); err != nil {
		t.Errorf("Check of a prepared message: %v", err)
	}
}

// countingClient counts sign-in calls, to show that a refused message is
// never sent.
type countingClient struct {
	PortalClient
	signIns int
}

func (c *countingClient) SignIn(ctx context.Context, wallet, message, signature string) (*api.SignInResult, error) {
	c.signIns++
	return c.PortalClient.SignIn(ctx, wallet, message, signature)
}

func TestSignInRefusesForeignMessages(t *testing.T) {
	e := newPortalEnv(t)
	counting := &countingClient{PortalClient: e.client}
	e.portal.client = counting
	w := e.wallet(0)
	now := e.clock.Now()
	build := func(domain string, addr common.Address, chainID uint64, at time.Time) string {
		m, err := siwe.New(domain, addr, e.fx.PortalURL, chainID, "", at)
		if err != nil {
			t.Fatal(err)
		}
		return m.String()
	}
	for _, tc := range []struct {
		name    string
		message string
		want    error
	}{
		{"another domain", build("evil.example", w.Address(), e.fx.ChainID, now), siwe.ErrDomain},
		{"another URI", func() string {
			m, err := siwe.New(e.fx.SigninDomain, w.Address(), "https://evil.example/", e.fx.ChainID, "", now)
			if err != nil {
				t.Fatal(err)
			}
			return m.String()
		}(), siwe.ErrURI},
		{"another address", build(e.fx.SigninDomain, e.wallet(1).Address(), e.fx.ChainID, now), siwe.ErrAddress},
		{"another chain", build(e.fx.SigninDomain, w.Address(), 1, now), siwe.ErrChain},
		{"expired", build(e.fx.SigninDomain, w.Address(), e.fx.ChainID, now.Add(-time.Hour)), siwe.ErrExpired},
		{"issued in the future", build(e.fx.SigninDomain, w.Address(), e.fx.ChainID, now.Add(time.Hour)), siwe.ErrEarly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := e.portal.SignIn(context.Background(), tc.message, w); !errors.Is(err, tc.want) {
				t.Errorf("SignIn: %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("not a sign-in message", func(t *testing.T) {
		var perr *siwe.ParseError
		if _, err := e.portal.SignIn(context.Background(), "Please sign: transfer everything", w); !errors.As(err, &perr) {
			t.Errorf("SignIn: %v, want a *siwe.ParseError", err)
		}
	})
	if counting.signIns != 0 {
		t.Errorf("%d refused messages were sent", counting.signIns)
	}
	if _, err := e.portal.Session(); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("Session after refusals: %v, want ErrNotSignedIn", err)
	}
}

// TestPortalBoundToItsHost: a portal whose sign-in domain is not the host
// of the URL it sends sign-ins to is refused before any message is made,
// naming both.
func TestPortalBoundToItsHost(t *testing.T) {
	e := newPortalEnv(t)
	for _, domain := range []string{"evil.example", strings.Split(e.fx.SigninDomain, ":")[0]} {
		_, err := NewPortal(PortalConfig{Domain: domain, URI: e.fx.PortalURL, ChainID: e.fx.ChainID}, e.client)
		if !errors.Is(err, siwe.ErrDomain) || !strings.Contains(err.Error(), fmt.Sprintf("%q", domain)) || !strings.Contains(err.Error(), e.fx.PortalURL) {
			t.Errorf("NewPortal with domain %q for %s: %v; want siwe.ErrDomain naming both", domain, e.fx.PortalURL, err)
		}
	}
}

func TestSignInFlow(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	w := e.wallet(0)
	if _, err := e.portal.SubmissionAccounts(ctx); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("before sign-in: %v, want ErrNotSignedIn", err)
	}
	m, err := e.portal.Prepare(w.Address())
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.portal.SignIn(ctx, m.String(), w)
	if err != nil {
		t.Fatal(err)
	}
	if s.Wallet != w.Address() || !s.Expiration.Equal(e.clock.Now().Add(sandbox.TokenLifetime)) {
		t.Errorf("session %v", s)
	}
	if s.Expired(e.clock.Now()) || s.TimeLeft(e.clock.Now()) != sandbox.TokenLifetime {
		t.Errorf("expired %v, time left %s", s.Expired(e.clock.Now()), s.TimeLeft(e.clock.Now()))
	}

	token, err := e.portal.RevealToken()
	if err != nil || strings.Count(token, ".") != 2 {
		t.Fatalf("RevealToken = %q, %v; want a JWT", token, err)
	}
	holder := struct{ S Session }{s}
	for _, shown := range []string{
		s.String(), fmt.Sprintf("%v", s), fmt.Sprintf("%+v", s), fmt.Sprintf("%#v", s), fmt.Sprintf("%+v", holder), fmt.Sprintf("%#v", holder), string(mustJSON(t, s)),
	} {
		if strings.Contains(shown, token) || strings.Contains(shown, token[:20]) {
			t.Errorf("the token shows in %q", shown)
		}
	}

	accounts, err := e.portal.SubmissionAccounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if accounts == nil {
		t.Fatal("no submission")
	}
	amount, _ := api.ParseAmount("150.5")
	params, err := e.portal.StakeParameters(ctx, e.fx.PoolIDs[0], amount)
	if err != nil {
		t.Fatal(err)
	}
	call, err := StakeCall(params)
	if err != nil {
		t.Fatal(err)
	}
	summary := DecodeCall(ctx, call, DecodeOptions{Signer: w.Address(), ChainID: e.fx.ChainID})
	if summary.Title() != "staking pool stake" || summary.Args[0].Units != "150.5" || call.From != w.Address() {
		t.Errorf("stake call %s %+v from %s", summary.Title(), summary.Args, call.From.Hex())
	}

	// The same message again is a replay, which the portal refuses.
	if _, err := e.portal.SignIn(ctx, m.String(), w); !errors.Is(err, api.ErrInvalidSignature) {
		t.Errorf("replay: %v, want api.ErrInvalidSignature", err)
	}
}

// TestSignInWithKeystore signs in with a demo wallet's key file, as a user
// does: unlock, sign, and refuse once locked again.
func TestSignInWithKeystore(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	store, err := keystore.Open(e.fx.KeystoreDir)
	if err != nil {
		t.Fatal(err)
	}
	w := e.fx.Wallets[2]
	addr := common.HexToAddress(w.Address)
	if err := store.Unlock(addr, w.Passphrase); err != nil {
		t.Fatal(err)
	}
	signer := store.Signer(addr)
	m, err := e.portal.Prepare(addr)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := e.portal.SignIn(ctx, m.String(), signer); err != nil || s.Wallet != addr {
		t.Fatalf("SignIn = %v, %v", s, err)
	}
	store.Lock(addr)
	m, _ = e.portal.Prepare(addr)
	if _, err := e.portal.SignIn(ctx, m.String(), signer); !errors.Is(err, keystore.ErrLocked) {
		t.Errorf("locked account: %v, want keystore.ErrLocked", err)
	}
}

func TestSessionExpiry(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	w := e.wallet(1)
	m, _ := e.portal.Prepare(w.Address())
	if _, err := e.portal.SignIn(ctx, m.String(), w); err != nil {
		t.Fatal(err)
	}

	// Past its expiry, the session is not used.
	e.clock.Advance(sandbox.TokenLifetime)
	if _, err := e.portal.SubmissionAccounts(ctx); !errors.Is(err, ErrSessionExpired) {
		t.Errorf("after expiry: %v, want ErrSessionExpired", err)
	}

	// When the portal refuses a token the session still trusts (clocks
	// apart), the session is forgotten.
	e.clock.Advance(-sandbox.TokenLifetime)
	m, _ = e.portal.Prepare(w.Address())
	if _, err := e.portal.SignIn(ctx, m.String(), w); err != nil {
		t.Fatal(err)
	}
	e.portal.now = func() time.Time { return e.clock.Now().Add(-2 * sandbox.TokenLifetime) }
	e.clock.Advance(sandbox.TokenLifetime)
	if _, err := e.portal.SubmissionAccounts(ctx); !errors.Is(err, ErrSessionExpired) || !errors.Is(err, api.ErrUnauthorized) {
		t.Errorf("refused token: %v, want ErrSessionExpired and api.ErrUnauthorized", err)
	}
	if _, err := e.portal.Session(); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("after refusal: %v, want ErrNotSignedIn", err)
	}
}

func TestServiceResults(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	id := e.fx.AllocationIDs[0]
	owner := e.wallet(0).Address()

	p, err := e.client.MerkleProof(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	proof, err := ProofFromAPI(p)
	if err != nil {
		t.Fatal(err)
	}
	v := VerifyProof(ctx, proof, VerifyOptions{Now: e.clock.Now()})
	// No chain here: the root is not checked, and nothing fails.
	if v.Outcome() != NotChecked || len(v.Failures()) != 0 || v.Args == nil || v.Args.Allocation.OriginalBeneficiary != owner || v.WalletOK == nil || !*v.WalletOK {
		t.Errorf("verification of the sandbox's proof: %v, failures %q", v.Outcome(), v.Failures())
	}
	var echoed map[string]any
	if err := json.Unmarshal(mustJSON(t, v), &echoed); err != nil || echoed["proof"].(map[string]any)["id"] != p.ID {
		t.Errorf("proof not echoed: %v", err)
	}

	res, err := e.client.Claim(ctx, id, api.ClaimRequest{Sender: owner.Hex()})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := ClaimCalls(res)
	if err != nil || len(calls) != 1 {
		t.Fatalf("ClaimCalls = %v, %v", calls, err)
	}
	contracts, err := e.client.Contracts(ctx, e.fx.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	known := KnownContracts(contracts.Items)
	s := DecodeCall(ctx, calls[0], DecodeOptions{Signer: owner, ChainID: e.fx.ChainID, Known: known})
	if s.Title() != "vester withdraw" || s.Withdraw == nil || s.Withdraw.Leaf != v.Leaf || s.Known == "" ||
		s.Has(WarnNotBeneficiary) || s.Has(WarnWrongChain) || s.Has(WarnUnknownContract) {
		t.Errorf("claim call: %s to %q, warnings %v", s.Title(), s.Known, s.Warnings)
	}

	foreign := &api.ClaimResult{Parameters: []api.ClaimGroup{{Instructions: []api.Instruction{
		res.Parameters[0].Instructions[0], {Raw: json.RawMessage(`{"programId": "\u001b]52;c;evil\u0007", "accounts": []}`)},
	}}}}
	_, err = ClaimCalls(foreign)
	var fe *ForeignInstructionError
	if !errors.As(err, &fe) || !errors.Is(err, ErrNotEVM) || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("foreign instruction: %v", err)
	}
}

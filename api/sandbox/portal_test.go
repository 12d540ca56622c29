package sandbox

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"allot/internal/isotime"
	"allot/wallet/siwe"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/golang-jwt/jwt/v5"
)

// signInMessage writes an EIP-4361 message by hand, as D9 describes it.
type signInMessage struct {
	domain  string
	address common.Address
	chainID uint64
	nonce   string
	issued  time.Time
	expires time.Time
}

func (m signInMessage) String() string {
	return fmt.Sprintf("%s wants you to sign in with your Ethereum account:\n%s\n\nSign in to the Meridian claim portal.\n\n"+
		"URI: http://%s\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s\nExpiration Time: %s",
		m.domain, m.address.Hex(), m.domain, m.chainID, m.nonce, isotime.Format(m.issued), isotime.Format(m.expires))
}

// personalSign makes an EIP-191 signature with V 27 or 28, with
// go-ethereum's crypto alone.
func personalSign(t testing.TB, key *ecdsa.PrivateKey, message string) string {
	t.Helper()
	hash := crypto.Keccak256([]byte(fmt.Sprintf("\x19Ethereum Signed Message:\n%d%s", len(message), message)))
	sig, err := crypto.Sign(hash, key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return hexutil.Encode(sig)
}

func (e *env) message(wallet int, nonce string) signInMessage {
	return signInMessage{
		domain:  e.fx.SigninDomain,
		address: e.srv.World().Wallets[wallet].Address,
		chainID: e.fx.ChainID,
		nonce:   nonce,
		issued:  e.clock.Now(),
		expires: e.clock.Now().Add(10 * time.Minute),
	}
}

func (e *env) signIn(wallet common.Address, message, signature string) response {
	return e.do("POST", "/api/v2/"+e.fx.PortalID+"/auth/signin", nil, obj{"wallet": wallet.Hex(), "message": message, "signature": signature})
}

// token signs demo wallet n in and returns its access token.
func (e *env) token(n int) string {
	e.t.Helper()
	m := e.message(n, fmt.Sprintf("Nonce%011d", time.Now().UnixNano()%1e11))
	r := e.signIn(m.address, m.String(), personalSign(e.t, e.srv.World().Wallets[n].Key, m.String()))
	var body struct {
		AccessToken string `json:"accessToken"`
	}
	if r.status != http.StatusOK || json.Unmarshal(r.body, &body) != nil {
		e.t.Fatalf("sign in: %d %s", r.status, r.body)
	}
	return body.AccessToken
}

func TestSignIn(t *testing.T) {
	e := newEnv(t, Options{})
	w := e.srv.World().Wallets[0]
	m := e.message(0, "abcDEF0123456789")
	r := e.signIn(w.Address, m.String(), personalSign(t, w.Key, m.String()))
	var body struct {
		AccessToken string `json:"accessToken"`
		Expiration  string `json:"expiration"`
	}
	if r.status != http.StatusOK || json.Unmarshal(r.body, &body) != nil {
		t.Fatalf("sign in: %d %s", r.status, r.body)
	}
	if body.Expiration != isotime.Format(testStart.Add(TokenLifetime)) {
		t.Errorf("expiration %s", body.Expiration)
	}
	// The token: HS256, sub the wallet, the portal id, exp.
	claims := jwt.MapClaims{}
	tok, _, err := jwt.NewParser().ParseUnverified(body.AccessToken, claims)
	if err != nil || tok.Method.Alg() != "HS256" || claims["sub"] != w.Address.Hex() || claims["portalId"] != e.fx.PortalID ||
		claims["exp"] != float64(testStart.Add(TokenLifetime).Unix()) {
		t.Errorf("token %v %v: %v", tok.Method, claims, err)
	}
	if ops := e.srv.Journal(); len(ops) != 1 || ops[0].Operation != "auth/signin" {
		t.Errorf("journal %+v", ops)
	}

	// The same message again is a replay.
	e.signIn(w.Address, m.String(), personalSign(t, w.Key, m.String())).wantPortalError(t, http.StatusUnauthorized, codeInvalidSignature)

	other := e.srv.World().Wallets[1]
	for _, tc := range []struct {
		name    string
		change  func(m *signInMessage)
		signer  *ecdsa.PrivateKey
		wallet  common.Address
		tamper  func(string) string
		status  int
		pathOrC string
	}{
		{name: "wrong domain", change: func(m *signInMessage) { m.domain = "evil.example" }},
		{name: "wrong chain", change: func(m *signInMessage) { m.chainID = 1 }},
		{name: "expired", change: func(m *signInMessage) {
			m.issued, m.expires = m.issued.Add(-20*time.Minute), m.issued.Add(-10*time.Minute)
		}},
		{name: "issued in the future", change: func(m *signInMessage) {
			m.issued, m.expires = m.issued.Add(time.Hour), m.issued.Add(2*time.Hour)
		}},
		{name: "older than a day", change: func(m *signInMessage) {
			m.issued, m.expires = m.issued.Add(-25*time.Hour), m.issued.Add(time.Hour)
		}},
		{name: "signed by another key", signer: other.Key},
		{name: "message names another wallet", change: func(m *signInMessage) { m.address = other.Address }, signer: other.Key},
		{name: "message altered after signing", tamper: func(s string) string { return strings.Replace(s, "Meridian", "Meridiam", 1) }},
		{name: "unparsable message", tamper: func(s string) string { return "hello" }, status: 400, pathOrC: "message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := e.message(0, "Nonce"+strings.ReplaceAll(tc.name, " ", ""))
			if tc.change != nil {
				tc.change(&m)
			}
			signer := w.Key
			if tc.signer != nil {
				signer = tc.signer
			}
			text := m.String()
			sig := personalSign(t, signer, text)
			if tc.tamper != nil {
				text = tc.tamper(text)
			}
			r := e.signIn(w.Address, text, sig)
			if tc.status == 400 {
				r.wantPortalError(t, http.StatusBadRequest, tc.pathOrC)
				return
			}
			r.wantPortalError(t, http.StatusUnauthorized, codeInvalidSignature)
		})
	}

	t.Run("V 0/1 signature", func(t *testing.T) {
		m := e.message(0, "NonceLowV0000001")
		sig, _ := hexutil.Decode(personalSign(t, w.Key, m.String()))
		sig[64] -= 27
		if r := e.signIn(w.Address, m.String(), hexutil.Encode(sig)); r.status != http.StatusOK {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
	})
	for _, tc := range []struct {
		name, path string
		body       obj
	}{
		{"no wallet", "wallet", obj{"message": "m", "signature": "0x00"}},
		{"malformed wallet", "wallet", obj{"wallet": "me", "message": "m", "signature": "0x00"}},
		{"no message", "message", obj{"wallet": w.Address.Hex(), "signature": "0x00"}},
		{"short signature", "signature", obj{"wallet": w.Address.Hex(), "message": "m", "signature": "0x1234"}},
		{"signature without 0x", "signature", obj{"wallet": w.Address.Hex(), "message": "m", "signature": strings.Repeat("ab", 65)}},
		{"message too long", "message", obj{"wallet": w.Address.Hex(), "message": strings.Repeat("m", 5000), "signature": "0x00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.do("POST", "/api/v2/"+e.fx.PortalID+"/auth/signin", nil, tc.body).wantPortalError(t, http.StatusBadRequest, tc.path)
		})
	}
	if n := len(e.srv.Journal()); n != 2 {
		t.Errorf("journal has %d entries, want the 2 sign-ins that succeeded", n)
	}
}

func TestPortalTokens(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/api/v2/" + e.fx.PortalID + "/submission/accounts"
	bearer := func(token string) map[string]string { return map[string]string{"Authorization": "Bearer " + token} }
	token := e.token(0)

	var sub struct {
		ClaimWallet *string `json:"claimWallet"`
		Submitted   bool    `json:"submitted"`
		PohPassed   bool    `json:"pohPassed"`
		Accounts    []struct {
			Value       string  `json:"value"`
			Type        string  `json:"type"`
			IsEligible  bool    `json:"isEligible"`
			Description *string `json:"description"`
		} `json:"accounts"`
	}
	r := e.do("GET", path, bearer(token), nil)
	if r.status != http.StatusOK || json.Unmarshal(r.body, &sub) != nil {
		t.Fatalf("submission accounts: %d %s", r.status, r.body)
	}
	if sub.ClaimWallet != nil || !sub.Submitted || !sub.PohPassed || len(sub.Accounts) != 2 ||
		sub.Accounts[0].Value != e.fx.Wallets[0].Address || sub.Accounts[0].Type != "WALLET" || !sub.Accounts[0].IsEligible || sub.Accounts[1].IsEligible {
		t.Errorf("wallet 0's submission: %s", r.body)
	}
	r = e.do("GET", path, bearer(e.token(2)), nil)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"submitted":false`) || !strings.Contains(string(r.body), `"accounts":[]`) {
		t.Errorf("wallet 2 never submitted: %s", r.body)
	}
	r = e.do("GET", path, bearer(e.token(1)), nil)
	if !strings.Contains(string(r.body), `"claimWallet":"`+e.fx.Wallets[1].Address+`"`) {
		t.Errorf("wallet 1 names a claim wallet: %s", r.body)
	}

	forged := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": e.fx.Wallets[0].Address, "portalId": e.fx.PortalID,
		"exp": testStart.Add(time.Hour).Unix()})
	forgedToken, _ := forged.SignedString([]byte("not the sandbox's key"))
	none := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"sub": e.fx.Wallets[0].Address, "portalId": e.fx.PortalID,
		"exp": testStart.Add(time.Hour).Unix()})
	noneToken, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	for name, header := range map[string]map[string]string{
		"no header":      nil,
		"not bearer":     {"Authorization": "Basic " + token},
		"garbage":        bearer("x.y.z"),
		"forged":         bearer(forgedToken),
		"alg none":       bearer(noneToken),
		"token too long": bearer(strings.Repeat("a", maxTokenLength+1)),
	} {
		t.Run(name, func(t *testing.T) {
			e.do("GET", path, header, nil).wantPortalError(t, http.StatusUnauthorized, codeUnauthorized)
		})
	}
	t.Run("unknown portal", func(t *testing.T) {
		e.do("GET", "/api/v2/00000000-0000-4000-8000-000000000000/submission/accounts", bearer(token), nil).
			wantPortalError(t, http.StatusNotFound, codePortalNotFound)
	})
	t.Run("expired", func(t *testing.T) {
		e.clock.Advance(TokenLifetime)
		e.do("GET", path, bearer(token), nil).wantPortalError(t, http.StatusUnauthorized, codeUnauthorized)
	})
}

func TestHumanityStatus(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/api/v2/" + e.fx.PortalID + "/humanity/status"
	for _, tc := range []struct {
		wallet string
		want   bool
	}{
		{e.fx.Wallets[0].Address, true},
		{strings.ToLower(e.fx.Wallets[1].Address), true},
		{e.fx.Wallets[2].Address, false},
		{e.fx.Wallets[3].Address, false}, // submitted, not passed
		{"0x000000000000000000000000000000000000dEaD", false},
	} {
		r := e.do("POST", path, nil, obj{"value": obj{"value": tc.wallet}})
		if r.status != http.StatusOK || string(r.body) != fmt.Sprintf(`{"verified":%v}`, tc.want) {
			t.Errorf("%s: %d %s", tc.wallet, r.status, r.body)
		}
	}
	e.do("POST", path, nil, obj{"value": obj{"value": "me"}}).wantPortalError(t, http.StatusBadRequest, "value.value")
	e.do("POST", path, nil, obj{"value": "0x000000000000000000000000000000000000dEaD"}).wantPortalError(t, http.StatusBadRequest, "value")
	e.do("POST", path, nil, obj{}).wantPortalError(t, http.StatusBadRequest, "value")
	e.do("POST", path, nil, "{").wantPortalError(t, http.StatusBadRequest, bodyPath)
}

func TestStakeParameters(t *testing.T) {
	e := newEnv(t, Options{})
	token := e.token(0)
	header := map[string]string{"Authorization": "Bearer " + token}
	get := func(query url.Values, header map[string]string) response {
		return e.do("GET", "/api/"+e.fx.PortalID+"/parameters/stake?"+query.Encode(), header, nil)
	}
	pool, _ := e.srv.World().Pool(e.fx.PoolIDs[0])
	r := get(url.Values{"stakingPoolId": {pool.ID}, "amount": {"250.75"}}, header)
	var p struct {
		StakeID     string `json:"stakeId"`
		From        string `json:"from"`
		To          string `json:"to"`
		Data        string `json:"data"`
		PlatformFee string `json:"platformFee"`
	}
	if r.status != http.StatusOK || json.Unmarshal(r.body, &p) != nil {
		t.Fatalf("stake parameters: %d %s", r.status, r.body)
	}
	data, _ := hexutil.Decode(p.Data)
	uint256, _ := abi.NewType("uint256", "", nil)
	values, err := abi.Arguments{{Type: uint256}}.Unpack(data[4:])
	if err != nil || string(data[:4]) != string(crypto.Keccak256([]byte("stake(uint256)"))[:4]) || values[0].(*big.Int).Cmp(units(250, 75, 2)) != 0 {
		t.Errorf("calldata %s: %v %v", p.Data, values, err)
	}
	if !isUUID(p.StakeID) || p.From != e.fx.Wallets[0].Address || p.To != contractAddress(t, e, pool.ContractID) || p.PlatformFee != "0.0002" {
		t.Errorf("parameters %+v", p)
	}

	var finished, active *Pool
	for _, pool := range e.srv.World().Pools {
		switch {
		case finished == nil && pool.Status == PoolFinished:
			finished = pool
		case active == nil && pool.Status == PoolActive && pool.MinimumStakeAmount.Cmp(units(1000, 0, 0)) == 0:
			active = pool
		}
	}
	for _, tc := range []struct {
		name    string
		query   url.Values
		status  int
		pathOrC string
	}{
		{"no pool", url.Values{"amount": {"1"}}, 400, "stakingPoolId"},
		{"malformed pool", url.Values{"stakingPoolId": {"p"}, "amount": {"1"}}, 400, "stakingPoolId"},
		{"no amount", url.Values{"stakingPoolId": {pool.ID}}, 400, "amount"},
		{"zero amount", url.Values{"stakingPoolId": {pool.ID}, "amount": {"0"}}, 400, "amount"},
		{"amount not a number", url.Values{"stakingPoolId": {pool.ID}, "amount": {"ten"}}, 400, "amount"},
		{"below the minimum", url.Values{"stakingPoolId": {active.ID}, "amount": {"999.99"}}, 400, "amount"},
		{"finished pool", url.Values{"stakingPoolId": {finished.ID}, "amount": {"5000"}}, 400, "stakingPoolId"},
		{"unknown pool", url.Values{"stakingPoolId": {e.fx.TokenIDs[0]}, "amount": {"1"}}, 404, codePoolNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			get(tc.query, header).wantPortalError(t, tc.status, tc.pathOrC)
		})
	}
	get(url.Values{"stakingPoolId": {pool.ID}, "amount": {"1"}}, nil).wantPortalError(t, http.StatusUnauthorized, codeUnauthorized)
	get(url.Values{"stakingPoolId": {pool.ID}, "amount": {"1"}}, map[string]string{"Authorization": "Bearer nope"}).
		wantPortalError(t, http.StatusUnauthorized, codeUnauthorized)
}

// TestSignInWithWalletMessage signs in with the message wallet/siwe builds
// for the client, so that the two readings of D9 agree.
func TestSignInWithWalletMessage(t *testing.T) {
	e := newEnv(t, Options{})
	w := e.srv.World().Wallets[3]
	m, err := siwe.New(e.fx.SigninDomain, w.Address, e.fx.PortalURL, e.fx.ChainID, "Sign in to the portal.", e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if r := e.signIn(w.Address, m.String(), personalSign(t, w.Key, m.String())); r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
}

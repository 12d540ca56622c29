package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"allot/api"
	"allot/internal/isotime"
	"allot/wallet/siwe"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// PortalConfig is what a profile says about its claim portal (D9).
type PortalConfig struct {
	// Domain is the portal's host, the profile's signin_domain: the only
	// domain a sign-in message may name.
	Domain string
	// URI is the profile's portal_url, the message's URI.
	URI string
	// ChainID is the profile's chain_id.
	ChainID uint64
	// Statement is the optional line the message shows the user.
	Statement string
}

// PortalClient is the part of the service client a portal session uses;
// *api.Client is one.
type PortalClient interface {
	SignIn(ctx context.Context, wallet, message, signature string) (*api.SignInResult, error)
	SubmissionAccounts(ctx context.Context, accessToken string) (*api.SubmissionAccounts, error)
	StakeParameters(ctx context.Context, accessToken, poolID string, amount api.Number) (*api.StakeParameters, error)
}

var _ PortalClient = (*api.Client)(nil)

// Portal signs in to the claim portal and keeps the session: the access
// token stays in memory, is attached to the operations that need it (D10)
// and is never printed. It is safe for concurrent use.
type Portal struct {
	cfg    PortalConfig
	client PortalClient
	now    func() time.Time

	mu      sync.Mutex
	session *Session
}

// NewPortal returns a portal for cfg that calls the service with client.
func NewPortal(cfg PortalConfig, client PortalClient) (*Portal, error) {
	if cfg.Domain == "" || strings.ContainsAny(cfg.Domain, " /") {
		return nil, fmt.Errorf("portal: signin domain %q is not a host", cfg.Domain)
	}
	if u, err := url.Parse(cfg.URI); err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("portal: portal URL %q is not an absolute URL", cfg.URI)
	}
	// A sign-in is signed only for the host it is sent to (EIP-4361).
	if host, err := siwe.DomainOf(cfg.URI); err != nil || !strings.EqualFold(cfg.Domain, host) {
		return nil, fmt.Errorf("portal: %w: the sign-in domain %q is not the host of the portal URL %q, where sign-ins are sent; set signin_domain = %q or leave it out",
			siwe.ErrDomain, cfg.Domain, cfg.URI, host)
	}
	if cfg.ChainID == 0 {
		return nil, errors.New("portal: no chain id")
	}
	return &Portal{cfg: cfg, client: client, now: time.Now}, nil
}

// Prepare builds the sign-in message (D9) for wallet. Show its String() to
// the user, exactly, before SignIn signs it.
func (p *Portal) Prepare(wallet common.Address) (*siwe.Message, error) {
	return siwe.New(p.cfg.Domain, wallet, p.cfg.URI, p.cfg.ChainID, p.cfg.Statement, p.now())
}

// Check parses message, one built by Prepare or given from outside, and
// refuses it unless it is bound to where it is sent (its domain the host
// of the portal URL, its URI the portal URL), names the profile's chain
// and the wallet, and is valid now. The errors wrap siwe.ErrDomain,
// siwe.ErrURI, siwe.ErrAddress, siwe.ErrChain, siwe.ErrExpired or
// siwe.ErrEarly, or a *siwe.ParseError.
func (p *Portal) Check(message string, wallet common.Address) (*siwe.Message, error) {
	m, err := siwe.Parse(message)
	if err != nil {
		return nil, fmt.Errorf("check sign-in message: %w", err)
	}
	if err := m.CheckDestination(p.cfg.URI); err != nil {
		return nil, fmt.Errorf("refuse to sign: %w", err)
	}
	if err := m.Verify(p.cfg.Domain, wallet, p.cfg.ChainID, p.now()); err != nil {
		return nil, fmt.Errorf("refuse to sign: %w", err)
	}
	return m, nil
}

// SignIn checks message (see Check) for signer's account, signs it with
// EIP-191 and sends it to the portal. The session replaces any earlier one.
func (p *Portal) SignIn(ctx context.Context, message string, signer Signer) (Session, error) {
	wallet := signer.Address()
	if _, err := p.Check(message, wallet); err != nil {
		return Session{}, fmt.Errorf("sign in: %w", err)
	}
	sig, err := signer.SignText([]byte(message))
	if err != nil {
		return Session{}, fmt.Errorf("sign in: sign message: %w", err)
	}
	if len(sig) == crypto.SignatureLength && sig[crypto.RecoveryIDOffset] < 27 {
		sig[crypto.RecoveryIDOffset] += 27 // D9: V is 27 or 28
	}
	if signerOf, err := siwe.RecoverSigner(message, sig); err != nil || signerOf != wallet {
		return Session{}, fmt.Errorf("sign in: the signature is not %s's", wallet.Hex())
	}
	res, err := p.client.SignIn(ctx, wallet.Hex(), message, hexutil.Encode(sig))
	if err != nil {
		return Session{}, fmt.Errorf("sign in: %w", err)
	}
	if !res.Expiration.After(p.now()) {
		return Session{}, fmt.Errorf("sign in: the portal gave a token that expired at %s", isotime.Format(res.Expiration.Time))
	}
	s := Session{Wallet: wallet, Expiration: res.Expiration.UTC(), token: &accessToken{res.AccessToken}}
	p.mu.Lock()
	p.session = &s
	p.mu.Unlock()
	return s, nil
}

// Session returns the current session: ErrNotSignedIn without one,
// ErrSessionExpired once its token has expired.
func (p *Portal) Session() (Session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.session == nil {
		return Session{}, ErrNotSignedIn
	}
	if p.session.Expired(p.now()) {
		return *p.session, fmt.Errorf("%w at %s: sign in again", ErrSessionExpired, isotime.Format(p.session.Expiration))
	}
	return *p.session, nil
}

// SignOut forgets the session.
func (p *Portal) SignOut() {
	p.mu.Lock()
	p.session = nil
	p.mu.Unlock()
}

// RevealToken returns the access token, for the one place a user asked to
// see it (`allot signin --show-token`). Nothing else should call it.
func (p *Portal) RevealToken() (string, error) {
	s, err := p.Session()
	if err != nil {
		return "", err
	}
	return s.token.value, nil
}

// SubmissionAccounts lists the signed-in wallet's submission (operation 12).
func (p *Portal) SubmissionAccounts(ctx context.Context) (*api.SubmissionAccounts, error) {
	s, err := p.Session()
	if err != nil {
		return nil, fmt.Errorf("submission accounts: %w", err)
	}
	res, err := p.client.SubmissionAccounts(ctx, s.token.value)
	return res, p.refused(s, err)
}

// StakeParameters asks for the unsigned stake call of amount tokens into a
// pool (operation 13, D11).
func (p *Portal) StakeParameters(ctx context.Context, poolID string, amount api.Number) (*api.StakeParameters, error) {
	s, err := p.Session()
	if err != nil {
		return nil, fmt.Errorf("stake parameters: %w", err)
	}
	res, err := p.client.StakeParameters(ctx, s.token.value, poolID, amount)
	return res, p.refused(s, err)
}

// refused forgets session s when the portal no longer takes its token, and
// says so in the error.
func (p *Portal) refused(s Session, err error) error {
	if err == nil || !errors.Is(err, api.ErrUnauthorized) {
		return err
	}
	p.mu.Lock()
	if p.session != nil && p.session.token == s.token {
		p.session = nil
	}
	p.mu.Unlock()
	return fmt.Errorf("%w: %w", ErrSessionExpired, err)
}

// Session is a portal session: the wallet signed in and when its access
// token expires. The token never shows in String, GoString, JSON or fmt's
// %v of a struct holding a Session: it sits behind a pointer.
type Session struct {
	Wallet     common.Address
	Expiration time.Time
	token      *accessToken
}

type accessToken struct{ value string }

// Expired reports whether the token has expired at now (or there is none).
func (s Session) Expired(now time.Time) bool {
	return s.token == nil || !now.Before(s.Expiration)
}

// TimeLeft is how long the token stays valid from now; 0 once expired.
func (s Session) TimeLeft(now time.Time) time.Duration {
	if s.Expired(now) {
		return 0
	}
	return s.Expiration.Sub(now)
}

// String describes the session without its token.
func (s Session) String() string {
	if s.token == nil {
		return "not signed in"
	}
	return fmt.Sprintf("signed in as %s until %s", s.Wallet.Hex(), isotime.Format(s.Expiration))
}

// GoString is String, so that %#v cannot reveal the token either.
func (s Session) GoString() string { return s.String() }

// MarshalJSON writes {"wallet": ADDRESS, "expiration": ISO}, never the
// token.
func (s Session) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Wallet     string `json:"wallet"`
		Expiration string `json:"expiration"`
	}{s.Wallet.Hex(), isotime.Format(s.Expiration)})
}

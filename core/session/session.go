// Package session turns a profile (or the embedded sandbox, when there is no
// configuration) into the live clients that the dashboard and the headless
// commands share.
package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"allot/api"
	"allot/core/act"
	"allot/core/config"
	"allot/core/journal"
	"allot/internal/memnet"
	"allot/wallet"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

// SandboxProfile is the profile name shown for the embedded sandbox.
const SandboxProfile = "sandbox"

// Options say which configuration and profile to open.
type Options struct {
	ConfigPath   string // empty: the default path
	Profile      string // empty: the default profile
	ForceSandbox bool   // the embedded sandbox even when a configuration exists
	// ReadOnly makes the session read-only whatever its profile says
	// (--read-only).
	ReadOnly bool
	// Embedded is the embedded sandbox, opened without a configuration
	// or with ForceSandbox (package embedded provides it).
	Embedded Embedded
	Getenv   func(string) string
	// Notice receives one-line messages for the user (the embedded sandbox
	// in use, configuration warnings). Headless commands print them on
	// stderr; the dashboard shows them in its status line.
	Notice func(string)
}

// Embedded is the embedded sandbox, which this package does not know
// (so that what reads a session never depends on the sandbox): package
// embedded provides it.
type Embedded interface {
	// Open starts it and opens a session on it, its state in stateDir;
	// its chain's start and its seed's rest wait a moment for the first
	// screen's requests.
	Open(stateDir string) (*Session, error)
	// Deployment is its deployment in the journal, in whichever of its
	// worlds; Tokens and PoolNames name its seed's tokens and a token's
	// pools, with nothing started (shell completion).
	Deployment() journal.Deployment
	Tokens() ([]Token, error)
	PoolNames(tokenID string) ([]string, error)
}

// Session is one profile, opened.
type Session struct {
	Name     string // profile name
	Sandbox  bool   // the embedded sandbox
	Profile  config.Profile
	API      *api.Client
	TokenIDs []string // the first is the default token
	Requests *RequestLog
	StateDir string
	Now      func() time.Time
	// Warnings were told when the session opened (a configuration others
	// can read holding a key, ...): headless commands printed them, the
	// dashboard shows them.
	Warnings []string

	// Chain is the profile's EVM node (rpc_url), or the embedded sandbox's
	// chain; nil when the profile names none.
	Chain wallet.Node
	// TrackPoll is how often a sent transaction's receipt is looked for
	// (wallet.TrackOptions.Poll); zero is the wallet's default, a second.
	TrackPoll time.Duration
	// Fixtures describes the embedded sandbox's seed data; nil on a real
	// deployment.
	Fixtures *Fixtures
	// Applied lists the writes the embedded sandbox applied, oldest first
	// (GET /_sandbox/journal), for tests to hold allot to; nil on a real
	// deployment. A write whose answer was lost is checked through
	// Recorder (act.Recorder.Check), never by reading this.
	Applied func() []AppliedWrite
	// Seeded waits until the embedded sandbox has seeded and deployed its
	// world, which it does in the background after Open returns, and says
	// why not if it could not; nil on a real deployment. It does not hurry
	// the sandbox's hold (sandboxHold), as a request that needs the world
	// does.
	Seeded func(ctx context.Context) error

	// ConfigPath is the configuration file the profile was read from,
	// where Pin writes; empty for the embedded sandbox.
	ConfigPath string

	ledger act.Ledger // the embedded sandbox's, for Recorder; nil elsewhere
	// world names this run of the embedded sandbox, a new world on each
	// start, in the journal; "" on a real deployment.
	world   string
	closers []func()
	pins    pinState
	// historyChain is the history's own connection to rpc_url, its
	// answers bounded (history.go); nil on the embedded sandbox.
	historyChain *ethclient.Client
	// readOnly is why the session may not act (readonly.go); "" when it
	// may.
	readOnly string
}

// Switch opens the other profiles of the configuration a session came
// from, for the dashboard's :profile.
type Switch struct {
	Names []string // the configuration's profiles, sorted; none without a file
	Open  func(name string) (*Session, error)
	Err   error // why the configuration could not be read, if it could not
}

// NewSwitch reads the profiles of the configuration opts name. Opening one
// prints nothing: notices went out when allot started, and a dashboard
// owns the terminal.
func NewSwitch(opts Options) Switch {
	cfg, err := config.Load(opts.ConfigPath)
	if errors.Is(err, config.ErrNotFound) {
		return Switch{}
	}
	if err != nil {
		return Switch{Err: err}
	}
	return Switch{
		Names: cfg.ProfileNames(),
		Open: func(name string) (*Session, error) {
			o := opts
			o.Profile, o.ForceSandbox, o.Notice = name, false, nil
			return Open(context.Background(), o)
		},
	}
}

// Opener is a session ready to open: the configuration read and the
// profile resolved, so that what can be wrong with them is told before
// anything takes the terminal. Only the embedded sandbox is left to start,
// the one slow part of opening, so that a dashboard can draw first and
// open behind its first frame.
type Opener struct {
	Name     string // the profile's name
	Sandbox  bool   // Open starts the embedded sandbox
	ReadOnly bool   // the session will be read-only
	StateDir string
	// Theme is the dashboard's colours (config.Themes; "" is "auto"):
	// ALLOT_THEME, else the configuration's theme.
	Theme string
	// Open returns the session. Call it once: the caller closes what it
	// returns.
	Open func() (*Session, error)
}

// Open opens the session that opts describe.
func Open(ctx context.Context, opts Options) (*Session, error) {
	o, err := Prepare(opts)
	if err != nil {
		return nil, err
	}
	return o.Open()
}

// Prepare reads the configuration and resolves the profile opts name (its
// API key, its clients), telling opts.Notice what the user should know,
// and returns what opens it. A profile's session is built here, which
// costs no network; the embedded sandbox starts in Opener.Open.
func Prepare(opts Options) (Opener, error) {
	if opts.Getenv == nil {
		return Opener{}, errors.New("open session: no environment")
	}
	// Warnings are kept too: the dashboard shows them once it has taken
	// the screen, where stderr is no longer seen.
	var warnings []string
	notice := func(msg string) {
		if w, ok := strings.CutPrefix(msg, "warning: "); ok {
			warnings = append(warnings, w)
		}
		if opts.Notice != nil {
			opts.Notice(msg)
		}
	}
	stateDir, err := config.StateDir()
	if err != nil {
		return Opener{}, err
	}
	theme := opts.Getenv("ALLOT_THEME")
	if err := config.CheckTheme(theme); err != nil {
		return Opener{}, fmt.Errorf("ALLOT_THEME: %w", err)
	}
	sandboxOpener := Opener{Name: SandboxProfile, Sandbox: true, ReadOnly: opts.ReadOnly, StateDir: stateDir, Theme: theme, Open: func() (*Session, error) {
		if opts.Embedded == nil {
			return nil, errors.New("this build of allot has no embedded sandbox")
		}
		s, err := opts.Embedded.Open(stateDir)
		if err == nil && opts.ReadOnly {
			s.SetReadOnly(ReadOnlyFlag)
		}
		return s, err
	}}
	if opts.ForceSandbox {
		return sandboxOpener, nil
	}
	cfg, err := config.Load(opts.ConfigPath)
	if errors.Is(err, config.ErrNotFound) {
		if opts.Profile != "" && opts.Profile != SandboxProfile {
			return Opener{}, fmt.Errorf("no configuration file, so no profile %q: see config.example.toml", opts.Profile)
		}
		notice("no configuration file; using the embedded sandbox")
		return sandboxOpener, nil
	}
	if err != nil {
		return Opener{}, err
	}
	if theme == "" {
		theme, sandboxOpener.Theme = cfg.Theme, cfg.Theme
	}
	for _, w := range cfg.Warnings {
		notice("warning: " + w)
	}
	profile, err := cfg.Profile(opts.Profile)
	if err != nil {
		return Opener{}, err
	}
	for _, w := range InsecureURLs(profile) {
		notice("warning: " + w)
	}
	s, err := openProfile(profile, stateDir, opts.Getenv)
	if err != nil {
		return Opener{}, err
	}
	s.Warnings = warnings
	s.ConfigPath = cfg.Path
	switch {
	case opts.ReadOnly:
		s.SetReadOnly(ReadOnlyFlag)
	case profile.ReadOnly:
		s.SetReadOnly(readOnlyInProfile)
	}
	_, readOnly := s.ReadOnly()
	return Opener{Name: s.Name, ReadOnly: readOnly, StateDir: stateDir, Theme: theme, Open: func() (*Session, error) { return s, nil }}, nil
}

func openProfile(p config.Profile, stateDir string, getenv func(string) string) (*Session, error) {
	key, err := p.ResolveAPIKey(getenv)
	if err != nil {
		return nil, err
	}
	s := &Session{
		Name:     p.Name,
		Profile:  p,
		TokenIDs: p.Tokens,
		Requests: NewRequestLog(),
		StateDir: stateDir,
		Now:      time.Now,
	}
	s.API, err = api.New(api.Config{
		BaseURL:      p.BaseURL,
		PortalURL:    p.PortalURL,
		PortalID:     p.PortalID,
		APIKey:       key,
		APIKeyHeader: p.APIKeyHeader,
		Timeout:      p.Timeout.Duration,
		OnExchange:   s.Requests.Add,
	})
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", p.Name, err)
	}
	if p.RPCURL != "" {
		// Dialing HTTP connects on first use, so a node that is down costs
		// nothing until a command needs the chain.
		client, err := ethclient.Dial(p.RPCURL)
		if err != nil {
			return nil, fmt.Errorf("profile %q: rpc_url: %w", p.Name, err)
		}
		s.Chain = client
		s.closers = append(s.closers, client.Close)
		if s.historyChain, err = dialHistory(p.RPCURL); err != nil {
			return nil, fmt.Errorf("profile %q: rpc_url: %w", p.Name, err)
		}
		s.closers = append(s.closers, s.historyChain.Close)
	}
	return s, nil
}

// EmbeddedParts are what package embedded starts of the embedded
// sandbox, for NewEmbedded: its service, served in process, the seed's
// fixtures, the pins of its deployment, its chain and when it is seeded.
type EmbeddedParts struct {
	Server   EmbeddedServer
	Fixtures Fixtures
	// Pins are its own deployment, planned before the chain starts; the
	// code hashes are read from the chain once it is deployed
	// (SigningPins).
	Pins config.Pins
	// Seeded blocks, bounded by its context, until the world is deployed
	// and seeded (nil once it is); Need is Seeded for a chain call, which
	// also ends the hold on the world's start; Node is the chain, asked
	// only once Need has returned nil.
	Seeded, Need func(ctx context.Context) error
	Node         func() wallet.Node
	// Now is the sandbox's clock (tests pin it); nil is the wall clock.
	Now func() time.Time
	// Close stops the sandbox and its chain.
	Close func()
}

// EmbeddedServer is the embedded sandbox's service as a session serves
// it in process: its handler, and the journal of the writes it applied.
type EmbeddedServer interface {
	http.Handler
	// JournalLen is how many writes it applied so far; AppliedFrom those
	// from the mark'th on, each with the SHA-256 of its body (hex).
	JournalLen() int
	AppliedFrom(mark int) []AppliedWrite
}

// NewEmbedded opens a session on the embedded sandbox p describes. The
// client reaches the service over an in-memory network (real HTTP, no
// socket) and the chain through its in-process client, each chain call
// waiting until the world is deployed. stateDir keeps the journal.
func NewEmbedded(p EmbeddedParts, stateDir string) (*Session, error) {
	listener := memnet.Listen()
	l := newLedger(p.Server)
	httpSrv := &http.Server{Handler: l, ReadHeaderTimeout: 10 * time.Second}
	go httpSrv.Serve(listener)

	fx := p.Fixtures
	profile := config.Profile{
		Name:         SandboxProfile,
		BaseURL:      fx.BaseURL,
		PortalURL:    fx.PortalURL,
		PortalID:     fx.PortalID,
		APIKey:       fx.APIKey,
		APIKeyHeader: config.DefaultAPIKeyHeader,
		Tokens:       fx.TokenIDs,
		Timeout:      config.Duration{Duration: config.DefaultTimeout},
		ChainID:      fx.ChainID,
		Keystore:     fx.KeystoreDir,
		SigninDomain: fx.SigninDomain,
		Pins:         p.Pins,
	}
	now := p.Now
	if now == nil {
		now = time.Now
	}
	s := &Session{
		Name:     SandboxProfile,
		Sandbox:  true,
		Profile:  profile,
		TokenIDs: fx.TokenIDs,
		Requests: NewRequestLog(),
		StateDir: stateDir,
		Now:      now,
		Fixtures: &fx,
		Chain:    seededNode{p.Need, p.Node},
		Applied:  func() []AppliedWrite { return p.Server.AppliedFrom(0) },
		Seeded:   p.Seeded,
		ledger:   l,
		world:    newWorld(),

		TrackPoll: sandboxTrackPoll,
	}
	s.closers = append(s.closers, func() { httpSrv.Close(); p.Close() })
	var err error
	s.API, err = api.New(api.Config{
		BaseURL:      profile.BaseURL,
		PortalURL:    profile.PortalURL,
		PortalID:     profile.PortalID,
		APIKey:       profile.APIKey,
		APIKeyHeader: profile.APIKeyHeader,
		Timeout:      profile.Timeout.Duration,
		HTTPClient:   &http.Client{Transport: &http.Transport{DialContext: listener.DialContext}},
		OnExchange:   s.Requests.Add,
	})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("embedded sandbox client: %w", err)
	}
	return s, nil
}

// sandboxTrackPoll is how often the embedded sandbox's chain is looked at
// for a sent transaction's receipt: a look in process costs next to
// nothing, and a block is mined a second after the last, so a receipt is
// seen as it is mined, not up to a second later.
const sandboxTrackPoll = 100 * time.Millisecond

// Deployment names what the session works with, for the journal: its
// entries are told apart by service and chain, not by the profile's name
// alone (the embedded sandbox and a profile named "sandbox" differ), and
// on the embedded sandbox by its run: each start is a new world.
func (s *Session) Deployment() journal.Deployment {
	return journal.Deployment{Profile: s.Name, BaseURL: s.Profile.BaseURL, ChainID: s.Profile.ChainID, World: s.world}
}

// newWorld draws a name for one run of the embedded sandbox.
func newWorld() string {
	b := make([]byte, 8)
	rand.Read(b) // crypto/rand does not fail on supported platforms
	return hex.EncodeToString(b)
}

// Close stops what the session started; closing again does nothing.
func (s *Session) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// KnownContracts labels the contracts of the profile's tokens: the targets
// a call may have without a warning.
func (s *Session) KnownContracts(ctx context.Context) (map[common.Address]string, error) {
	contracts, err := s.contracts(ctx)
	if err != nil {
		return nil, err
	}
	return wallet.KnownContracts(contracts), nil
}

func (s *Session) contracts(ctx context.Context) ([]api.Contract, error) {
	var all []api.Contract
	for _, token := range s.TokenIDs {
		list, err := s.tokenContracts(ctx, token)
		if err != nil {
			return nil, fmt.Errorf("list the contracts of token %s, to find the vester and check the calls against: %w", token, err)
		}
		all = append(all, list.Items...)
	}
	return all, nil
}

// ClaimPolicy gathers what the signing policy holds a claim of
// allocationID to, independently of the claim's answer: the allocation's
// proof from the merkle-proof operation, the tokens' contracts that may be
// its vester, and pins, the profile's. amount is what the user asked for,
// in base units; nil for all that is claimable.
func (s *Session) ClaimPolicy(ctx context.Context, pins wallet.Pins, allocationID string, signer common.Address, amount *big.Int) (wallet.ClaimPolicy, error) {
	p := wallet.ClaimPolicy{AllocationID: allocationID, Signer: signer, ChainID: s.Profile.ChainID, Amount: amount, Pins: pins, Units: s.VesterUnits(ctx)}
	res, err := s.API.MerkleProof(ctx, allocationID)
	if err != nil {
		return p, fmt.Errorf("the allocation's proof, which the claim is checked against: %w", err)
	}
	if p.Proof, err = wallet.ProofFromAPI(res); err != nil {
		return p, fmt.Errorf("the allocation's proof, which the claim is checked against: %w", err)
	}
	if p.Candidates, err = s.listedVesters(ctx); err != nil {
		return p, err
	}
	return p, nil
}

// StakePolicy gathers what the signing policy holds a stake of amount
// (base units) in pool to: the pool's staking contract, as the contract
// list names the pool's contractId, and pins, the profile's.
func (s *Session) StakePolicy(ctx context.Context, pins wallet.Pins, pool api.Pool, signer common.Address, amount *big.Int) (wallet.StakePolicy, error) {
	p := wallet.StakePolicy{PoolID: pool.ID, Signer: signer, ChainID: s.Profile.ChainID, Amount: amount, Pins: pins}
	contracts, err := s.contracts(ctx)
	if err != nil {
		return p, err
	}
	for _, c := range contracts {
		if c.ID == pool.ContractID && pool.ContractID != "" && common.IsHexAddress(c.Address) {
			p.Pool = common.HexToAddress(c.Address)
		}
	}
	return p, nil
}

// Pool finds a pool of the profile's tokens by its id.
func (s *Session) Pool(ctx context.Context, id string) (api.Pool, error) {
	for _, token := range s.TokenIDs {
		pools, err := s.API.AllPools(ctx, token)
		if err != nil {
			return api.Pool{}, fmt.Errorf("find pool %s: %w", id, err)
		}
		for _, p := range pools.Items {
			if p.ID == id {
				return p, nil
			}
		}
	}
	return api.Pool{}, fmt.Errorf("no pool %s among the staking pools of the profile's tokens", id)
}

// maxVesterCandidates bounds the contracts asked for a proof's root: a
// hostile contract list must not turn one check into thousands of calls.
const maxVesterCandidates = 64

// VerifyOptions say how a merkle proof is checked on this session: its
// root on the session's chain, against the contracts of the profile's
// tokens. The service's list only proposes; the contract that holds the
// root is the vester (wallet.FindVester). When the root cannot be checked
// (no chain, the list cannot be read), Unchecked says why.
func (s *Session) VerifyOptions(ctx context.Context) wallet.VerifyOptions {
	return s.verifyOptions(ctx, true)
}

// verifyOptions are VerifyOptions; without everyListed, only the pinned
// vesters are asked when the profile pins any (a quick look that a
// refresh repeats: Verify falls back on every listed one).
func (s *Session) verifyOptions(ctx context.Context, everyListed bool) wallet.VerifyOptions {
	if err := s.unverifiable(); err != nil {
		return wallet.VerifyOptions{Unchecked: err}
	}
	candidates, err := s.vesterCandidates(ctx, everyListed)
	if err != nil {
		return wallet.VerifyOptions{Unchecked: err}
	}
	return wallet.VerifyOptions{Chain: s.Chain, Candidates: candidates}
}

// unverifiable says why no proof's root can be checked on this session;
// nil when one can.
func (s *Session) unverifiable() error {
	if s.Chain == nil {
		return fmt.Errorf("profile %q has no rpc_url to read the vester's root from", s.Name)
	}
	if len(s.TokenIDs) == 0 {
		return fmt.Errorf("profile %q names no token whose contracts could hold the root", s.Name)
	}
	return nil
}

// vesterCandidates are the contracts that may hold a proof's root, for a
// verification, the history and the unlocks ahead: the profile's pinned
// vesters first, then, with everyListed or when it pins none, every other
// contract of the profile's tokens that may be a vester, pinned or not (at
// most maxVesterCandidates of those). Whether a proof is on its vester is
// one fact, whether the user trusts that vester to sign for it another
// (VesterTrusts): only signing needs the pin.
func (s *Session) vesterCandidates(ctx context.Context, everyListed bool) ([]common.Address, error) {
	pins, err := s.SigningPins(ctx)
	if err != nil {
		return nil, err
	}
	return s.candidatesOf(ctx, pins, everyListed)
}

// candidatesOf are vesterCandidates under pins.
func (s *Session) candidatesOf(ctx context.Context, pins wallet.Pins, everyListed bool) ([]common.Address, error) {
	out := slices.Clone(pins.Vesters)
	if len(out) > 0 && !everyListed {
		return out, nil
	}
	listed, err := s.listedVesters(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range listed {
		if !pins.Pinned(wallet.PinVester, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// listedVesters are the contracts of the profile's tokens that may be a
// vester, at most maxVesterCandidates of them.
func (s *Session) listedVesters(ctx context.Context) ([]common.Address, error) {
	contracts, err := s.contracts(ctx)
	if err != nil {
		return nil, err
	}
	candidates := wallet.VesterCandidates(contracts)
	if n := len(candidates); n > maxVesterCandidates {
		return nil, fmt.Errorf("the tokens list %d contracts that could be the vester, more than the %d allot asks", n, maxVesterCandidates)
	}
	return candidates, nil
}

// Portal is the profile's claim portal (docs/deployment.md D9): its sign-in messages name the
// profile's signin_domain, portal_url and chain_id.
func (s *Session) Portal() (*wallet.Portal, error) {
	p := s.Profile
	if p.ChainID == 0 {
		return nil, fmt.Errorf("profile %q has no chain_id, which the sign-in message names: set it", s.Name)
	}
	portal, err := wallet.NewPortal(wallet.PortalConfig{Domain: p.SigninDomain, URI: withoutUserinfo(p.PortalURL), ChainID: p.ChainID}, s.API)
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", s.Name, err)
	}
	return portal, nil
}

// withoutUserinfo is raw without user:password@: the sign-in message names
// the portal's URI, and is shown, signed, sent and journaled, so a
// password of portal_url (or of base_url, its default) stays out of it.
func withoutUserinfo(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}

// NeedChain refuses what builds transactions (what names it) when the
// profile has no node to take nonces, gas and fees from, or no chain id
// to check the transactions against.
func (s *Session) NeedChain(what string) error {
	if s.Chain == nil {
		return fmt.Errorf("%s needs an EVM node: set rpc_url in profile %q", what, s.Name)
	}
	if s.Profile.ChainID == 0 {
		return fmt.Errorf("profile %q has no chain_id: set it, so that allot can check the transactions are for that chain", s.Name)
	}
	return nil
}

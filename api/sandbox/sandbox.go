package sandbox

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// DefaultPublicURL is the address the sandbox names in fixtures and upload
// URLs when Options.PublicURL is empty: a host that resolves nowhere, for a
// sandbox reached in process.
const DefaultPublicURL = "http://sandbox.invalid"

// DefaultAPIKeyHeader is the administration group's auth header (D1).
const DefaultAPIKeyHeader = "x-service-api-token"

// DefaultUploadStorage bounds the bytes of all uploads kept in memory.
const DefaultUploadStorage = 256 << 20

// Options configure New. The zero value is a working sandbox.
type Options struct {
	// Faults are injected into responses; the zero value injects none.
	Faults Faults
	// KeystoreDir receives the demo wallets' V3 keystore files. Empty: a
	// new temporary directory, removed by Close.
	KeystoreDir string
	// Clock is the sandbox's time: seed dates, token expiry, upload URL
	// expiry, and (without a Chain) unlocks. Default time.Now.
	Clock func() time.Time
	// PublicURL is the base URL the sandbox is reached at, named in the
	// fixtures and in upload and asset URLs. Default DefaultPublicURL.
	PublicURL string
	// Chain runs the world on a chain; nil: synthetic addresses and seed
	// balances (see Chain).
	Chain Chain
	// WhaleStakes is how many stakes the whale pool holds when the
	// sandbox seeds its own World; 0: WhaleStakes. Ignored with World.
	WhaleStakes int
	// World is the seed data to serve; nil: SeedSized(Clock(), WhaleStakes). A chain
	// integration seeds first, deploys, then passes the same World. A
	// World from SeedFirst may be finished while the sandbox runs: every
	// operation waits for Finish first.
	World *World
	// Ready, when set, is waited for too before an operation is answered:
	// a chain integration deploying the world in the background returns
	// nil once it has, or why it could not. It must return when ctx ends.
	Ready func(ctx context.Context) error
	// ReadyNow, with Ready, tells without waiting whether Ready would
	// return at once. A chain integration sets it when it deploys the
	// World as seeded at the addresses its Chain answers from the start,
	// and nothing moves on the chain before Ready returns: until then the
	// contracts and pools listings are answered at once from the seed,
	// the answer the chain gives just after the deployment. nil: they
	// wait for Ready like every other operation.
	ReadyNow func() bool
	// APIKeyHeader names the API key header; default DefaultAPIKeyHeader.
	APIKeyHeader string
	// UploadStorage bounds the bytes of all uploads; default
	// DefaultUploadStorage.
	UploadStorage int64
}

// Server is the sandbox service: an http.Handler serving the administration
// group under /api/external/v1/, the portal group under /api/v2/{portalId}/
// and /api/{portalId}/parameters/stake, and its own endpoints under
// /_sandbox/. It is safe for concurrent use.
type Server struct {
	world        *World
	readyFn      func(ctx context.Context) error
	readyNow     func() bool
	clock        func() time.Time
	chain        Chain
	publicURL    string
	signinDomain string
	apiKeyHeader string
	keys         apiKeys
	jwtKey       []byte
	uploadKey    []byte
	uploadLimit  int64
	keystore     keystoreFiles
	faults       *faultInjector
	mux          *http.ServeMux

	mu           sync.Mutex
	journal      []JournalEntry
	transactions []Transaction
	scheduleKeys map[string]bool
	uploads      map[string]*upload
	uploadBytes  int64
	nonces       map[string]time.Time // sign-in nonce -> when it may be forgotten
	withdrawn    map[string]*big.Int  // allocation id -> base units withdrawn
	follow       follower             // what the chain's events said

	closeOnce sync.Once
	closeErr  error
}

// New starts a sandbox: it seeds the world (unless given one) and writes the
// demo wallets' keystore files.
func New(opts Options) (*Server, error) {
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	publicURL, host, err := parsePublicURL(opts.PublicURL)
	if err != nil {
		return nil, fmt.Errorf("new sandbox: %w", err)
	}
	faults, err := newFaultInjector(opts.Faults)
	if err != nil {
		return nil, fmt.Errorf("new sandbox: %w", err)
	}
	world := opts.World
	if world == nil {
		if world, err = SeedSized(clock(), opts.WhaleStakes); err != nil {
			return nil, fmt.Errorf("new sandbox: %w", err)
		}
	}
	s := &Server{
		world:        world,
		readyFn:      opts.Ready,
		readyNow:     opts.ReadyNow,
		clock:        clock,
		chain:        opts.Chain,
		publicURL:    publicURL,
		signinDomain: host,
		apiKeyHeader: opts.APIKeyHeader,
		keys:         newAPIKeys(),
		jwtKey:       randomBytes(32),
		uploadKey:    randomBytes(32),
		uploadLimit:  opts.UploadStorage,
		faults:       faults,
		scheduleKeys: map[string]bool{},
		uploads:      map[string]*upload{},
		nonces:       map[string]time.Time{},
		withdrawn:    map[string]*big.Int{},
	}
	if s.apiKeyHeader == "" {
		s.apiKeyHeader = DefaultAPIKeyHeader
	}
	if s.uploadLimit <= 0 {
		s.uploadLimit = DefaultUploadStorage
	}
	if s.keystore, err = writeKeystore(opts.KeystoreDir, world.Wallets); err != nil {
		return nil, fmt.Errorf("new sandbox: %w", err)
	}
	s.routes()
	return s, nil
}

func parsePublicURL(raw string) (base, host string, err error) {
	if raw == "" {
		raw = DefaultPublicURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", "", fmt.Errorf("public URL %q: want http(s)://HOST[:PORT][/PATH]", raw)
	}
	return strings.TrimSuffix(u.String(), "/"), u.Host, nil
}

// randomBytes draws a secret. crypto/rand does not fail on supported
// platforms (it panics rather than return an error), so neither does this.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// ready waits until the world is seeded (and deployed, with Options.Ready)
// or ctx ends: a request that arrives while the sandbox still seeds in the
// background waits rather than be answered from half a world. The error
// is the answer to send instead. Ready goes first: the chain integration
// may hold the seed's rest back until an operation needs it.
func (s *Server) ready(ctx context.Context) *apiError {
	var err error
	if s.readyFn != nil {
		err = s.readyFn(ctx)
	}
	if err == nil {
		err = s.world.Wait(ctx)
	}
	if err != nil {
		return errInternal("the sandbox could not finish seeding: " + err.Error())
	}
	return nil
}

// early tells whether a listing of the world's first part (contracts,
// pools) is to be answered from the seed now rather than wait for ready:
// while the world's rest or its deployment is under way, when neither can
// change the answer. A seed that failed is ready's to report.
func (s *Server) early() bool {
	if s.readyFn != nil && s.readyNow == nil {
		return false
	}
	finished, err := s.world.finishedNow()
	if err != nil {
		return false
	}
	return !finished || (s.readyFn != nil && !s.readyNow())
}

// Close removes the keystore directory if New created it. Calling it again
// returns the first call's result.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.keystore.remove() })
	return s.closeErr
}

// World returns the seed data the sandbox serves. Treat it as read-only;
// a World still seeding in the background holds its leaves, trees and
// stakers only once its Wait returns nil.
func (s *Server) World() *World { return s.world }

const (
	adminPrefix   = "/api/external/v1/"
	portalPrefix  = "/api/"
	sandboxPrefix = "/_sandbox/"
	uploadsPath   = sandboxPrefix + "uploads/"
	assetsPath    = sandboxPrefix + "assets/"
	journalPath   = sandboxPrefix + "journal"
)

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("POST "+adminPrefix+"transactions/create", s.admin(true, s.createTransactions))
	m.HandleFunc("POST "+adminPrefix+"schedules/create", s.admin(true, s.createSchedule))
	m.HandleFunc("POST "+adminPrefix+"staking/pools", s.listing(s.listPools))
	m.HandleFunc("POST "+adminPrefix+"staking/stakes", s.admin(false, s.listStakes))
	m.HandleFunc("POST "+adminPrefix+"portals/creatives/upload-url", s.admin(true, s.uploadURL))
	m.HandleFunc("POST "+adminPrefix+"portals/creatives/create", s.admin(true, s.createCreative))
	m.HandleFunc("POST "+adminPrefix+"allocations/{id}/claim", s.admin(true, s.claim))
	m.HandleFunc("POST "+adminPrefix+"contracts", s.listing(s.listContracts))
	m.HandleFunc("GET "+adminPrefix+"allocations/{id}/merkle-proof", s.admin(false, s.merkleProof))
	m.HandleFunc(adminPrefix, func(w http.ResponseWriter, r *http.Request) {
		writeAdminError(w, errNotFound("no operation %s %s", r.Method, r.URL.Path))
	})

	m.HandleFunc("POST /api/v2/{portalId}/auth/signin", s.portal(true, false, s.signIn))
	m.HandleFunc("POST /api/v2/{portalId}/humanity/status", s.portal(false, false, s.humanityStatus))
	m.HandleFunc("GET /api/v2/{portalId}/submission/accounts", s.portal(false, true, s.submissionAccounts))
	m.HandleFunc("GET /api/{portalId}/parameters/stake", s.portal(false, true, s.stakeParameters))
	m.HandleFunc(portalPrefix, func(w http.ResponseWriter, r *http.Request) {
		writePortalError(w, errNotFound("no operation %s %s", r.Method, r.URL.Path))
	})

	m.HandleFunc("GET "+journalPath, s.serveJournal)
	m.HandleFunc("PUT "+uploadsPath+"{key...}", s.receiveUpload)
	m.HandleFunc("GET "+assetsPath+"{key...}", s.serveAsset)
	s.mux = m
}

// ServeHTTP serves a request, with faults when they are on.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.faults != nil && r.URL.Path != journalPath {
		s.faults.serve(s.mux, w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

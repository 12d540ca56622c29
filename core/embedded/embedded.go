// Package embedded is the embedded sandbox as allot opens it without a
// configuration: the sandbox's service and its world on an in-process
// chain, opened as a session (session.NewEmbedded). It is the one place
// outside the sandbox and `allot sandbox` that knows the sandbox, so that
// the screens, which read a session, never depend on it.
package embedded

import (
	"context"
	"fmt"
	"time"

	"allot/api/sandbox"
	"allot/api/sandbox/chain"
	"allot/api/sandbox/onchain"
	"allot/core/config"
	"allot/core/journal"
	"allot/core/session"
	"allot/wallet"
)

// Sandbox starts the embedded sandbox in process, with opts (tests pin its
// clock), its world deployed on an in-process chain, and opens a session
// on it, its state in stateDir. Its contracts and pools are listed from
// the seed meanwhile, as the chain will hold them; every other answer and
// every chain call waits, and Close stops the background work.
func Sandbox(opts sandbox.Options, stateDir string) (*session.Session, error) {
	return open(opts, stateDir, 0)
}

// Hold is how long allot's own start holds back the embedded sandbox's
// chain and its seed's rest, unless a request needs them sooner: the
// first screen's contracts and pools need neither, and come sooner with
// the cores to themselves (on a two-core machine, about twice as soon).
const Hold = 200 * time.Millisecond

// open is Sandbox holding the chain's start and the seed's rest back for
// up to hold.
func open(opts sandbox.Options, stateDir string, hold time.Duration) (*session.Session, error) {
	if opts.PublicURL == "" {
		opts.PublicURL = sandbox.DefaultPublicURL
	}
	sb, err := onchain.Start(context.Background(), onchain.Options{Sandbox: opts, Background: true, Hold: hold})
	if err != nil {
		return nil, fmt.Errorf("start the embedded sandbox: %w", err)
	}
	return Attach(sb, opts.Clock, stateDir, func() { sb.Close() })
}

// Attach opens a session on the running sandbox sb, whose clock is now
// (nil: the wall clock), its state in stateDir; closing the session
// calls release. Sessions attached to one sandbox share its service and
// chain, each with its own state and request log.
func Attach(sb *onchain.Sandbox, now func() time.Time, stateDir string, release func()) (*session.Session, error) {
	return session.NewEmbedded(session.EmbeddedParts{
		Server:   server{sb.Server},
		Fixtures: Fixtures(sb.Server.Fixtures()),
		Pins:     deploymentPins(sb.Deployed()),
		Seeded:   sb.Seeded,
		Need:     sb.Need,
		Node:     func() wallet.Node { return sb.Chain.Client() },
		Now:      now,
		Close:    release,
	}, stateDir)
}

// Start is the embedded sandbox for session.Options: opened held back
// (Hold), and named for shell completion from its seed alone.
type Start struct{}

var _ session.Embedded = Start{}

// Open starts the sandbox behind allot's first screen.
func (Start) Open(stateDir string) (*session.Session, error) {
	return open(sandbox.Options{}, stateDir, Hold)
}

// Deployment is the embedded sandbox's deployment in the journal, in
// whichever of its worlds (its seeded allocations are the same in each):
// the service at its public URL on the chain it plans.
func (Start) Deployment() journal.Deployment {
	return journal.Deployment{Profile: session.SandboxProfile, BaseURL: sandbox.DefaultPublicURL, ChainID: chain.DefaultChainID}
}

// Tokens are the seed's tokens.
func (Start) Tokens() ([]session.Token, error) {
	w, err := seedNames()
	if err != nil {
		return nil, err
	}
	tokens := make([]session.Token, len(w.Tokens))
	for i, t := range w.Tokens {
		tokens[i] = session.Token{ID: t.ID, Name: t.Name, Symbol: t.Symbol}
	}
	return tokens, nil
}

// PoolNames are the seed's pools of token, in list order.
func (Start) PoolNames(token string) ([]string, error) {
	w, err := seedNames()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, pool := range w.Pools {
		if pool.TokenID == token {
			names = append(names, pool.Name)
		}
	}
	return names, nil
}

// seedNames seeds the embedded sandbox's world for its names alone: the
// tokens and pools are the same whatever the day and the whale pool's
// size, so the smallest whale pool does (a few milliseconds).
func seedNames() (*sandbox.World, error) {
	return sandbox.SeedFirst(time.Now(), 1)
}

// server is the sandbox's service as a session serves it.
type server struct{ *sandbox.Server }

func (s server) AppliedFrom(mark int) []session.AppliedWrite { return appliedFrom(s.Server, mark) }

// Applied are the writes srv applied, as a session describes them.
func Applied(srv *sandbox.Server) []session.AppliedWrite { return appliedFrom(srv, 0) }

func appliedFrom(srv *sandbox.Server, mark int) []session.AppliedWrite {
	entries := srv.JournalFrom(mark)
	out := make([]session.AppliedWrite, len(entries))
	for i, e := range entries {
		out[i] = session.AppliedWrite{Operation: e.Operation, Action: e.Action, BodySHA256: e.BodySHA256}
	}
	return out
}

// Fixtures are the sandbox's fixtures as a session describes them.
func Fixtures(fx sandbox.Fixtures) session.Fixtures {
	out := session.Fixtures{
		BaseURL: fx.BaseURL, PortalURL: fx.PortalURL, PortalID: fx.PortalID, PortalSlug: fx.PortalSlug,
		APIKey: fx.APIKey, ReadOnlyAPIKey: fx.ReadOnlyAPIKey, APIKeyHeader: fx.APIKeyHeader,
		TokenIDs: fx.TokenIDs, ContractIDs: fx.ContractIDs, AdminWalletIDs: fx.AdminWalletIDs,
		PoolIDs: fx.PoolIDs, BigPoolID: fx.BigPoolID, AllocationIDs: fx.AllocationIDs,
		LifeAllocationIDs: fx.LifeAllocationIDs, AllocationStates: fx.AllocationStates,
		SigninDomain: fx.SigninDomain, ChainID: fx.ChainID, KeystoreDir: fx.KeystoreDir,
	}
	for _, t := range fx.Tokens {
		out.Tokens = append(out.Tokens, session.FixtureToken{ID: t.ID, Name: t.Name, Symbol: t.Symbol})
	}
	for _, w := range fx.Wallets {
		out.Wallets = append(out.Wallets, session.FixtureWallet{Address: w.Address, KeyFile: w.KeyFile, Passphrase: w.Passphrase})
	}
	return out
}

// deploymentPins pins a sandbox's deployment: its tokens, vesters
// (vesting and airdrop contracts), staking contracts and the post-claim
// handlers it deploys beside its vesters, without their code hashes. On a
// new in-process chain the addresses are planned before it starts, so
// this is known at once.
func deploymentPins(deployed []onchain.Deployed) config.Pins {
	var pins config.Pins
	for _, d := range deployed {
		addr := d.Address.Hex()
		switch d.Kind {
		case "token":
			pins.Tokens = append(pins.Tokens, addr)
		case sandbox.ContractVesting, sandbox.ContractAirdrop:
			pins.Vesters = append(pins.Vesters, addr)
		case sandbox.ContractStaking:
			pins.Staking = append(pins.Staking, addr)
		case onchain.KindPostClaimHandler:
			pins.Handlers = append(pins.Handlers, addr)
		}
	}
	return pins
}

// Pins pins sb's deployment, code hashes included: what `allot sandbox`
// prints for a profile, and what tests of a sandbox behind a hostile
// service trust. sb must be seeded.
func Pins(ctx context.Context, sb *onchain.Sandbox) (config.Pins, error) {
	pins := deploymentPins(sb.Deployed())
	hashes, err := session.CodeHashes(ctx, sb.Chain.Client(), pins)
	if err != nil {
		return config.Pins{}, fmt.Errorf("the sandbox's contracts: %w", err)
	}
	pins.CodeHashes = hashes
	return pins, nil
}

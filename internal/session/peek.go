package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/chain"
	"allot/internal/config"
	"allot/internal/journal"
)

// Peek is what shell completion may know of the profile Options choose
// without opening it: the configuration is read, and nothing else is
// done. No sandbox starts, no key is unlocked, nothing is asked, told
// (Options.Notice is not called) or written; only PoolNames goes to the
// service, and only when asked.
type Peek struct {
	Name       string // the profile's name, or SandboxProfile
	Deployment journal.Deployment
	StateDir   string

	profile config.Profile // zero on the embedded sandbox
	sandbox bool
	getenv  func(string) string
}

// PeekAt resolves the profile opts name as Prepare does, from the
// configuration alone.
func PeekAt(opts Options) (Peek, error) {
	stateDir, err := config.StateDir()
	if err != nil {
		return Peek{}, err
	}
	sandboxPeek := Peek{Name: SandboxProfile, Deployment: sandboxDeployment(), StateDir: stateDir, sandbox: true}
	if opts.ForceSandbox {
		return sandboxPeek, nil
	}
	cfg, err := config.Load(opts.ConfigPath)
	if errors.Is(err, config.ErrNotFound) && (opts.Profile == "" || opts.Profile == SandboxProfile) {
		return sandboxPeek, nil
	}
	if err != nil {
		return Peek{}, err
	}
	p, err := cfg.Profile(opts.Profile)
	if err != nil {
		return Peek{}, err
	}
	return Peek{
		Name:       p.Name,
		Deployment: journal.Deployment{Profile: p.Name, BaseURL: p.BaseURL, ChainID: p.ChainID},
		StateDir:   stateDir,
		profile:    p,
		getenv:     opts.Getenv,
	}, nil
}

// sandboxDeployment is the embedded sandbox's deployment in the journal,
// in whichever of its worlds (its seeded allocations are the same in
// each): the service at its public URL on the chain it plans.
func sandboxDeployment() journal.Deployment {
	return journal.Deployment{Profile: SandboxProfile, BaseURL: sandbox.DefaultPublicURL, ChainID: chain.DefaultChainID}
}

// Token is a token the user may name on the command line: by its id, its
// name or its symbol (Session.FindToken).
type Token struct{ ID, Name, Symbol string }

// Tokens are the profile's tokens, then those only its token_names names,
// as Session.Tokens orders them; on the embedded sandbox, its seeded ones.
func (p Peek) Tokens() ([]Token, error) {
	if p.sandbox {
		w, err := seedNames()
		if err != nil {
			return nil, err
		}
		tokens := make([]Token, len(w.Tokens))
		for i, t := range w.Tokens {
			tokens[i] = Token{ID: t.ID, Name: t.Name, Symbol: t.Symbol}
		}
		return tokens, nil
	}
	s := Session{Profile: p.profile, TokenIDs: p.profile.Tokens}
	var tokens []Token
	for _, id := range s.Tokens() {
		n, _ := s.TokenName(id)
		tokens = append(tokens, Token{ID: id, Name: n.Name, Symbol: n.Symbol})
	}
	return tokens, nil
}

// PoolNames are the names of the staking pools of the token ref names (an
// id, a name or a symbol; "" the profile's first token), in the order
// the service lists them. The service is asked, bounded by ctx alone; on
// the embedded sandbox its seed answers, with nothing started.
func (p Peek) PoolNames(ctx context.Context, ref string) ([]string, error) {
	tokens, err := p.Tokens()
	if err != nil {
		return nil, err
	}
	token := findToken(tokens, ref)
	if token == "" {
		return nil, fmt.Errorf("no token %q", ref)
	}
	if p.sandbox {
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
	key, err := p.profile.ResolveAPIKey(p.getenv)
	if err != nil {
		return nil, err
	}
	client, err := api.New(api.Config{
		BaseURL:      p.profile.BaseURL,
		PortalURL:    p.profile.PortalURL,
		PortalID:     p.profile.PortalID,
		APIKey:       key,
		APIKeyHeader: p.profile.APIKeyHeader,
		Timeout:      p.profile.Timeout.Duration,
	})
	if err != nil {
		return nil, err
	}
	list, err := client.AllPools(ctx, token)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(list.Items))
	for i, pool := range list.Items {
		names[i] = pool.Name
	}
	return names, nil
}

// findToken is the id of the token ref names, as Session.FindToken finds
// it; "" is the first token, and an id of none of them is taken as it is.
func findToken(tokens []Token, ref string) string {
	if ref == "" {
		if len(tokens) == 0 {
			return ""
		}
		return tokens[0].ID
	}
	for _, t := range tokens {
		if strings.EqualFold(t.ID, ref) || t.Name != "" && strings.EqualFold(t.Name, ref) || t.Symbol != "" && strings.EqualFold(t.Symbol, ref) {
			return t.ID
		}
	}
	if api.CheckUUID("token", ref) == nil {
		return ref
	}
	return ""
}

// seedNames seeds the embedded sandbox's world for its names alone: the
// tokens and pools are the same whatever the day and the whale pool's
// size, so the smallest whale pool does (a few milliseconds).
func seedNames() (*sandbox.World, error) {
	return sandbox.SeedFirst(time.Now(), 1)
}

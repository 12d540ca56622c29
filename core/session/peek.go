package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"allot/api"
	"allot/core/config"
	"allot/core/journal"
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

	profile  config.Profile // zero on the embedded sandbox
	embedded Embedded       // the embedded sandbox's, when it is
	getenv   func(string) string
}

// PeekAt resolves the profile opts name as Prepare does, from the
// configuration alone.
func PeekAt(opts Options) (Peek, error) {
	stateDir, err := config.StateDir()
	if err != nil {
		return Peek{}, err
	}
	sandboxPeek := func() (Peek, error) {
		if opts.Embedded == nil {
			return Peek{}, errors.New("this build of allot has no embedded sandbox")
		}
		return Peek{Name: SandboxProfile, Deployment: opts.Embedded.Deployment(), StateDir: stateDir, embedded: opts.Embedded}, nil
	}
	if opts.ForceSandbox {
		return sandboxPeek()
	}
	cfg, err := config.Load(opts.ConfigPath)
	if errors.Is(err, config.ErrNotFound) && (opts.Profile == "" || opts.Profile == SandboxProfile) {
		return sandboxPeek()
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

// Token is a token the user may name on the command line: by its id, its
// name or its symbol (Session.FindToken).
type Token struct{ ID, Name, Symbol string }

// Tokens are the profile's tokens, then those only its token_names names,
// as Session.Tokens orders them; on the embedded sandbox, its seeded ones.
func (p Peek) Tokens() ([]Token, error) {
	if p.embedded != nil {
		return p.embedded.Tokens()
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
	if p.embedded != nil {
		return p.embedded.PoolNames(token)
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

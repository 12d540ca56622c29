package session

import (
	"maps"
	"slices"
	"strings"

	"allot/internal/config"
)

// TokenName names token id for people: the profile's token_names, else,
// on the embedded sandbox, its seeded token. ok is false when neither
// does: the interface has no call that names a token, so a caller shows
// the id.
func (s *Session) TokenName(id string) (config.TokenName, bool) {
	if n, ok := s.Profile.TokenName(id); ok {
		return n, true
	}
	if s.Fixtures != nil {
		for _, t := range s.Fixtures.Tokens {
			if strings.EqualFold(t.ID, id) && t.Name != "" {
				return config.TokenName{Name: t.Name, Symbol: t.Symbol}, true
			}
		}
	}
	return config.TokenName{}, false
}

// Tokens are the tokens a user may pick by name: the profile's tokens,
// then those only its token_names names, by id.
func (s *Session) Tokens() []string {
	ids := slices.Clone(s.TokenIDs)
	for _, id := range slices.Sorted(maps.Keys(s.Profile.TokenNames)) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// FindToken finds the token of Tokens that ref names: its id, or its name
// or symbol as TokenName gives them, whatever the case.
func (s *Session) FindToken(ref string) (string, bool) {
	for _, id := range s.Tokens() {
		n, named := s.TokenName(id)
		if strings.EqualFold(id, ref) || named && (strings.EqualFold(n.Name, ref) || n.Symbol != "" && strings.EqualFold(n.Symbol, ref)) {
			return id, true
		}
	}
	return "", false
}

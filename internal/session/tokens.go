package session

import (
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

// FindToken finds the profile's token that ref names: its id, or its
// name or symbol as TokenName gives them, whatever the case.
func (s *Session) FindToken(ref string) (string, bool) {
	for _, id := range s.TokenIDs {
		n, named := s.TokenName(id)
		if strings.EqualFold(id, ref) || named && (strings.EqualFold(n.Name, ref) || n.Symbol != "" && strings.EqualFold(n.Symbol, ref)) {
			return id, true
		}
	}
	return "", false
}

package session

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/internal/sanitize"
	"allot/wallet"
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

// TokenUnit names the amounts of token id, after them ("1,000 MRD"), as
// the dashboard's header names the token: its short name, else its id;
// "" for no id.
func (s *Session) TokenUnit(id string) string {
	if n, ok := s.TokenName(id); ok && n.Short() != "" {
		return n.Short()
	}
	return sanitize.Line(id)
}

// VesterUnits names the amounts a vester pays out (TokenUnit): those of
// the profile's token whose contracts list it, else, when the profile has
// one token, of that one (a pinned vester the lists leave out, or none
// established); "" when neither tells, or two tokens list it. The lists are read once, now: a
// token whose list cannot be read names none of its vesters.
func (s *Session) VesterUnits(ctx context.Context) func(vester common.Address) string {
	tokens := map[common.Address]string{}
	for _, token := range s.TokenIDs {
		list, err := s.tokenContracts(ctx, token)
		if err != nil {
			continue
		}
		for _, vester := range wallet.VesterCandidates(list.Items) {
			named := token
			if other, seen := tokens[vester]; seen && other != token {
				named = "" // listed by two tokens: it names neither
			}
			tokens[vester] = named
		}
	}
	only := ""
	if len(s.TokenIDs) == 1 {
		only = s.TokenIDs[0]
	}
	return func(vester common.Address) string {
		if token, ok := tokens[vester]; ok {
			return s.TokenUnit(token)
		}
		return s.TokenUnit(only)
	}
}

// ContractUnits names the amounts of each contract the profile's tokens
// list (the short name of the token that lists it), so that a review
// writes a vester's or a pool's amounts in their token. A token without a
// name (its id is no unit to read an amount in), a contract two tokens
// list and a token whose list cannot be read name none.
func (s *Session) ContractUnits(ctx context.Context) map[common.Address]string {
	units := map[common.Address]string{}
	seen := map[common.Address]bool{}
	for _, token := range s.TokenIDs {
		name, ok := s.TokenName(token)
		if !ok || name.Short() == "" {
			continue
		}
		list, err := s.tokenContracts(ctx, token)
		if err != nil {
			continue
		}
		for _, c := range list.Items {
			if !common.IsHexAddress(c.Address) {
				continue
			}
			addr := common.HexToAddress(c.Address)
			if seen[addr] && units[addr] != name.Short() {
				units[addr] = ""
				continue
			}
			seen[addr], units[addr] = true, name.Short()
		}
	}
	return units
}

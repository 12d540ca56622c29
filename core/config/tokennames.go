package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"allot/internal/sanitize"
)

// TokenName is how a profile names one of its tokens for people. The
// interface has no call that says a token's name or symbol, so the profile
// does, in [profiles.NAME.token_names], keyed by token id:
//
//	"7c9e6679-7425-40de-944b-e07fc1f90ae7" = { name = "Acme", symbol = "ACME" }
//
// name is required, symbol optional.
type TokenName struct {
	Name   string
	Symbol string
}

// Bounds on token_names: a name fits the header beside the profile and
// the wallet, a symbol is a ticker, and a profile names a few tokens.
const (
	MaxTokenNames  = 64
	MaxTokenName   = 40 // characters
	MaxTokenSymbol = 12 // characters
)

// String is "Acme (ACME)", or the name alone when there is no symbol,
// ready for a terminal.
func (t TokenName) String() string {
	if t.Symbol == "" {
		return sanitize.Line(t.Name)
	}
	return sanitize.Line(t.Name) + " (" + sanitize.Line(t.Symbol) + ")"
}

// Short is the symbol, or the name when there is none: where the line is
// too narrow for both.
func (t TokenName) Short() string {
	if t.Symbol == "" {
		return sanitize.Line(t.Name)
	}
	return sanitize.Line(t.Symbol)
}

// UnmarshalTOML reads one entry of token_names and checks it; the toml
// package adds the line and the key to the error. Unknown keys are
// refused here: the package takes everything under an Unmarshaler as
// decoded, so Parse's check of unknown keys never sees them.
func (t *TokenName) UnmarshalTOML(data any) error {
	table, ok := data.(map[string]any)
	if !ok {
		return errors.New(`a token's name is a table such as { name = "Acme", symbol = "ACME" }`)
	}
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s, isString := table[k].(string)
		var err error
		switch {
		case k != "name" && k != "symbol":
			return fmt.Errorf("unknown key %q: a token's name has the keys name and symbol", sanitize.Truncate(k, 40))
		case !isString:
			return fmt.Errorf("%s is not a string", k)
		case k == "name":
			t.Name, err = s, checkLabel(s, MaxTokenName, true)
		default:
			t.Symbol, err = s, checkLabel(s, MaxTokenSymbol, false)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	if t.Name == "" {
		return errors.New(`name is missing: { name = "Acme", symbol = "ACME" }`)
	}
	return nil
}

// checkLabel accepts printable text of 1 to max characters without
// surrounding spaces (inner spaces only where spaces is set): it is drawn
// in the header and in tables, where a control character, a bidirectional
// override or a tab would disguise what is shown.
func checkLabel(s string, max int, spaces bool) error {
	switch {
	case s == "":
		return errors.New("is empty")
	case !utf8.ValidString(s):
		return errors.New("is not UTF-8 text")
	case utf8.RuneCountInString(s) > max:
		return fmt.Errorf("%q is longer than %d characters", sanitize.Truncate(s, max), max)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("%q starts or ends with a space", s)
	}
	for _, r := range s {
		switch {
		case r == ' ' && !spaces:
			return fmt.Errorf("%q holds a space", s)
		case !unicode.IsPrint(r):
			return fmt.Errorf("%q holds the unprintable character %U", s, r)
		}
	}
	return nil
}

// checkTokenNames checks what the entries' decoding could not: how many
// there are, that each is keyed by a token id, and that no name or symbol
// stands for two tokens (:token and --token find a token by either). It
// keys them in lower case, as the service's ids are compared.
func (p *Profile) checkTokenNames() error {
	if len(p.TokenNames) > MaxTokenNames {
		return fmt.Errorf("token_names names %d tokens, more than %d", len(p.TokenNames), MaxTokenNames)
	}
	ids := make([]string, 0, len(p.TokenNames))
	for id := range p.TokenNames {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	names := make(map[string]TokenName, len(ids))
	owner := map[string]string{} // a name or symbol, in lower case: the token it names
	var problems []error
	for _, id := range ids {
		key := strings.ToLower(id)
		if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
			problems = append(problems, fmt.Errorf("token_names: key %q is not a token id (a UUID)", sanitize.Truncate(id, 40)))
			continue
		}
		if _, dup := names[key]; dup {
			problems = append(problems, fmt.Errorf("token_names: token %s is named twice", key))
			continue
		}
		n := p.TokenNames[id]
		names[key] = n
		for _, label := range []string{n.Name, n.Symbol} {
			l := strings.ToLower(label)
			if other, taken := owner[l]; taken && other != key && label != "" {
				problems = append(problems, fmt.Errorf("token_names: %q names both %s and %s", label, other, key))
			}
			owner[l] = key
		}
	}
	if len(problems) > 0 {
		return errors.Join(problems...)
	}
	if len(names) > 0 {
		p.TokenNames = names
	}
	return nil
}

// TokenName is the profile's name for token id, if it names it.
func (p Profile) TokenName(id string) (TokenName, bool) {
	n, ok := p.TokenNames[strings.ToLower(id)]
	return n, ok
}

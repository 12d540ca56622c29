package config

import (
	"fmt"
	"strings"
	"testing"
)

const namedTokens = `
[profiles.prod]
base_url = "https://api.example.com"
tokens = ["7c9e6679-7425-40de-944b-e07fc1f90ae7"]

[profiles.prod.token_names]
"7C9E6679-7425-40DE-944B-E07FC1F90AE7" = { name = "Acme Token", symbol = "ACME" }
"a3bb189e-8bf9-3888-9912-ace4e6543002" = { name = "Harbor" }
`

func TestTokenNames(t *testing.T) {
	cfg, err := Parse([]byte(namedTokens))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.Profile("prod")
	acme, ok := p.TokenName("7c9e6679-7425-40de-944b-e07fc1f90ae7")
	if !ok || acme.String() != "Acme Token (ACME)" || acme.Short() != "ACME" {
		t.Errorf("the upper-case key names the token as the service spells it: %+v %v", acme, ok)
	}
	harbor, ok := p.TokenName("A3BB189E-8BF9-3888-9912-ACE4E6543002")
	if !ok || harbor.String() != "Harbor" || harbor.Short() != "Harbor" {
		t.Errorf("a name without a symbol: %+v %v", harbor, ok)
	}
	if _, ok := p.TokenName("00000000-0000-0000-0000-000000000000"); ok {
		t.Error("a token the profile does not name has a name")
	}
}

// TestTokenNamesErrors: a bad entry is refused with its line and key, or
// the key at fault.
func TestTokenNamesErrors(t *testing.T) {
	head := "[profiles.a]\nbase_url = \"https://a\"\n[profiles.a.token_names]\n"
	id := `"7c9e6679-7425-40de-944b-e07fc1f90ae7"`
	at := `line 4 (last key "profiles.a.token_names.7c9e6679-7425-40de-944b-e07fc1f90ae7")`
	var many strings.Builder
	for i := range MaxTokenNames + 1 {
		fmt.Fprintf(&many, "\"7c9e6679-7425-40de-944b-%012d\" = { name = \"T%d\" }\n", i, i)
	}
	tests := []struct{ name, entries, want string }{
		{"a string", id + ` = "Acme (ACME)"`, at + `: a token's name is a table such as { name = "Acme", symbol = "ACME" }`},
		{"unknown key", id + ` = { name = "Acme", ticker = "ACME" }`, at + `: unknown key "ticker"`},
		{"no name", id + ` = { symbol = "ACME" }`, at + `: name is missing`},
		{"not a string", id + ` = { name = 7 }`, at + `: name is not a string`},
		{"empty", id + ` = { name = "" }`, at + `: name: is empty`},
		{"too long", id + ` = { name = "` + strings.Repeat("n", MaxTokenName+1) + `" }`, "name: \"nnnn"},
		{"escape", id + ` = { name = "Acme\u001b]52;c;aGk=\u0007" }`, at + `: name: "Acme\x1b]52;c;aGk=\a" holds the unprintable character U+001B`},
		{"bidi override", id + ` = { name = "Acme\u202eEMCA" }`, "holds the unprintable character U+202E"},
		{"padded", id + ` = { name = " Acme" }`, "name: \" Acme\" starts or ends with a space"},
		{"symbol with a space", id + ` = { name = "Acme", symbol = "AC ME" }`, `symbol: "AC ME" holds a space`},
		{"symbol too long", id + ` = { name = "Acme", symbol = "ACMEACMEACMEA" }`, "longer than 12 characters"},
		{"key not an id", `"acme" = { name = "Acme" }`, `profile "a": token_names: key "acme" is not a token id (a UUID)`},
		{"named twice", id + " = { name = \"Acme\" }\n" + strings.ToUpper(id) + ` = { name = "Other" }`, "token_names: token 7c9e6679-7425-40de-944b-e07fc1f90ae7 is named twice"},
		{"a label for two tokens", id + " = { name = \"Acme\", symbol = \"ACME\" }\n\"8c9e6679-7425-40de-944b-e07fc1f90ae7\" = { name = \"acme\" }",
			`token_names: "acme" names both 7c9e6679-7425-40de-944b-e07fc1f90ae7 and 8c9e6679-7425-40de-944b-e07fc1f90ae7`},
		{"too many", many.String(), fmt.Sprintf("token_names names %d tokens, more than %d", MaxTokenNames+1, MaxTokenNames)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(head + tt.entries + "\n"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant it to contain %s", err, tt.want)
			}
		})
	}
}

// FuzzParse: no configuration text panics the parser, and every token
// name one yields is printable text within its bounds, as the header
// draws it.
func FuzzParse(f *testing.F) {
	f.Add(namedTokens)
	f.Add(valid)
	f.Add("[profiles.a]\nbase_url = \"https://a\"\n[profiles.a.token_names]\n\"7c9e6679-7425-40de-944b-e07fc1f90ae7\" = { name = \"A\\u202eB\", symbol = 1 }\n")
	f.Fuzz(func(t *testing.T, text string) {
		cfg, err := Parse([]byte(text))
		if err != nil {
			return
		}
		for _, p := range cfg.Profiles {
			if len(p.TokenNames) > MaxTokenNames {
				t.Fatalf("%d token names", len(p.TokenNames))
			}
			for id, n := range p.TokenNames {
				if err := checkLabel(n.Name, MaxTokenName, true); err != nil {
					t.Fatalf("token %q: name %q: %v", id, n.Name, err)
				}
				if n.Symbol != "" && checkLabel(n.Symbol, MaxTokenSymbol, false) != nil {
					t.Fatalf("token %q: symbol %q", id, n.Symbol)
				}
				if n.String() != n.Name+" ("+n.Symbol+")" && n.String() != n.Name {
					t.Fatalf("token %q shown as %q", id, n.String())
				}
			}
		}
	})
}

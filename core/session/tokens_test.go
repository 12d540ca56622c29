package session

import (
	"slices"
	"testing"

	"allot/core/config"
)

func TestTokenName(t *testing.T) {
	const meridian, harbor, other = "db51faa7-2858-5523-b01a-79ecc813ed11", "028de82e-10de-5e3f-80c3-39636e464a0a", "7c9e6679-7425-40de-944b-e07fc1f90ae7"
	const unlisted = "9a1e6679-7425-40de-944b-e07fc1f90ae7" // named, not in tokens
	cfg, err := config.Parse([]byte(`[profiles.p]
base_url = "https://api.example.com"
[profiles.p.token_names]
"` + harbor + `" = { name = "Harbor Token", symbol = "HARB" }
"` + unlisted + `" = { name = "Unlisted" }
`))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.Profile("p")
	s := &Session{Profile: p, TokenIDs: []string{meridian, harbor, other}, Fixtures: &Fixtures{Tokens: []FixtureToken{
		{ID: meridian, Name: "Meridian", Symbol: "MRD"}, {ID: harbor, Name: "Harbor", Symbol: "HBR"},
	}}}
	for _, tt := range []struct{ id, want string }{
		{harbor, "Harbor Token (HARB)"}, // the profile's name comes first
		{meridian, "Meridian (MRD)"},    // then the embedded sandbox's
		{other, ""},                     // none: the caller shows the id
	} {
		n, ok := s.TokenName(tt.id)
		if got := n.String(); ok != (tt.want != "") || got != tt.want {
			t.Errorf("TokenName(%s) = %q, %v; want %q", tt.id, got, ok, tt.want)
		}
	}
	if got := s.Tokens(); !slices.Equal(got, []string{meridian, harbor, other, unlisted}) {
		t.Errorf("Tokens() = %v: the profile's, then those only token_names names", got)
	}
	for ref, want := range map[string]string{"harb": harbor, "harbor token": harbor, "MERIDIAN": meridian, "mrd": meridian,
		other: other, "unlisted": unlisted, "HBR": "", "Harbor": "", "Acme": ""} {
		if got, ok := s.FindToken(ref); got != want || ok != (want != "") {
			t.Errorf("FindToken(%q) = %q, %v; want %q", ref, got, ok, want)
		}
	}
}

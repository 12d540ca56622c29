package cli

import (
	"strings"
	"testing"

	"allot/core/config"
)

// TestTablesNameTheToken: contracts and pools say under the table whose
// they are: the token's name from the profile (or the embedded sandbox),
// else its whole id.
func TestTablesNameTheToken(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	last := func(args ...string) string {
		t.Helper()
		r := runCLI(t, s, nil, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		return lines[len(lines)-1]
	}
	if got := last("contracts"); !strings.HasSuffix(got, " contracts of Meridian (MRD)") {
		t.Errorf("contracts on the embedded sandbox end with %q", got)
	}

	first, second := s.TokenIDs[0], s.TokenIDs[1]
	s.Fixtures = nil // as on a real deployment: nothing but the profile names a token
	s.Profile.TokenNames = map[string]config.TokenName{first: {Name: "Acme Token", Symbol: "ACME"}}
	if got := last("pools"); !strings.HasSuffix(got, " pools of Acme Token (ACME)") {
		t.Errorf("pools of a token the profile names end with %q", got)
	}
	if got := last("contracts", "--token", second); !strings.HasSuffix(got, " contracts of token "+second) {
		t.Errorf("contracts of a token named nowhere end with %q", got)
	}
	// --token takes the name or symbol too.
	if got := last("pools", "--token", "acme"); !strings.HasSuffix(got, " pools of Acme Token (ACME)") {
		t.Errorf("pools --token acme end with %q", got)
	}
	if r := runCLI(t, s, nil, "pools", "--token", "Meridian"); r.code != 2 || !strings.Contains(r.stderr, `--token "Meridian" is neither a token id nor the name or symbol`) {
		t.Errorf("a name the profile does not give: exit %d\n%s", r.code, r.stderr)
	}
}

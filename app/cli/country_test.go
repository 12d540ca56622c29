package cli

import (
	"strings"
	"testing"
)

// TestClaimCountryCheckedAsTyped: --country is checked before anything
// is sent, and named as typed: "Germany", not "GERMANY"; ZZ, which the
// service refuses, is refused here first.
func TestClaimCountryCheckedAsTyped(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	id, sender := s.Fixtures.AllocationIDs[0], s.Fixtures.Wallets[0].Address
	for _, country := range []string{"Germany", "ZZ"} {
		r := runCLI(t, s, nil, "claim", id, "--sender", sender, "--country", country)
		if r.code != 2 || !strings.Contains(r.stderr, `--country: "`+country+`" is not an ISO 3166-1 alpha-2`) {
			t.Errorf("--country %s: exit %d, stderr %q", country, r.code, r.stderr)
		}
	}
	for _, e := range s.Applied() {
		if strings.Contains(e.Operation, "claim") {
			t.Errorf("a claim reached the service: %+v", e)
		}
	}
}

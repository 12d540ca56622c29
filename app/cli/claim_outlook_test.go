package cli

import (
	"strings"
	"testing"

	"allot/api/sandbox"
)

// TestClaimOfARevokedAllocationSendsNothing: `allot claim` reads the
// allocation's record on the vester before the claim is asked for, as the
// claim form does: a revoked allocation is refused, and no claim request
// reaches the service.
func TestClaimOfARevokedAllocationSendsNothing(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	var id string
	for _, a := range s.Fixtures.LifeAllocationIDs {
		if s.Fixtures.AllocationStates[a] == sandbox.StateRevoked {
			id = a
		}
	}
	if id == "" {
		t.Fatal("no revoked allocation in the sandbox")
	}
	r := runCLI(t, s, nil, "claim", id, "--sender", s.Fixtures.Wallets[0].Address)
	if r.code != 1 || !strings.Contains(r.stderr, "no claim can be signed: the allocation was revoked on the vester") || !strings.Contains(r.stderr, "nothing was sent") {
		t.Errorf("claim of a revoked allocation: exit %d\n%s", r.code, r.stderr)
	}
	for _, x := range s.Requests.All() {
		if strings.HasSuffix(x.URL, "/claim") {
			t.Errorf("a claim request reached the service: %s %s", x.Method, x.URL)
		}
	}
}

// TestClaimMoreThanClaimableIsRefusedHere: an amount above what is
// claimable is refused before the service is asked, in the words and
// units of the screens ('5,145.7595 MRD'), with nothing sent.
func TestClaimMoreThanClaimableIsRefusedHere(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	holder := s.Fixtures.Wallets[0].Address
	r := runCLI(t, s, nil, "claim", s.Fixtures.AllocationIDs[0], "--sender", holder, "--amount", "99,999,999")
	if r.code != 1 || !strings.Contains(r.stderr, "--amount 99,999,999.00 MRD is more than the ") || !strings.Contains(r.stderr, " MRD claimable now") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := len(s.Applied()); n != 0 {
		t.Errorf("%d writes reached the service", n)
	}
}

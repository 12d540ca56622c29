package cli

import (
	"strings"
	"testing"
)

// TestTxTokenByName: tx start and tx fund take --token as a name or
// symbol, as contracts, pools and stakes do (it said "not a UUID"); a name
// of no token is refused before anything is sent.
func TestTxTokenByName(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	fx := s.Fixtures
	for _, token := range []string{"MRD", "meridian"} {
		r := runCLI(t, s, nil, "tx", "start", "--contract", fx.ContractIDs[0], "--token", token, "--allocation", fx.AllocationIDs[0], "-o", "json")
		if r.code != 0 {
			t.Fatalf("--token %s: exit %d: %s", token, r.code, r.stderr)
		}
	}
	r := runCLI(t, s, nil, "tx", "fund", "--token", "MRD", "--item", fx.AllocationIDs[0]+"=1")
	if r.code != 0 {
		t.Fatalf("tx fund --token MRD: exit %d: %s", r.code, r.stderr)
	}
	sent := len(s.Applied())
	r = runCLI(t, s, nil, "tx", "start", "--contract", fx.ContractIDs[0], "--token", "NOPE", "--allocation", fx.AllocationIDs[0])
	if r.code != 2 || !strings.Contains(r.stderr, `--token "NOPE" is neither a token id nor the name or symbol`) {
		t.Errorf("--token NOPE: exit %d: %s", r.code, r.stderr)
	}
	if len(s.Applied()) != sent {
		t.Error("a request with an unknown token was sent")
	}
}

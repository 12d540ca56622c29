package cli

import (
	"maps"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPinCheck: `allot pin check RPC_URL` reads every pin from a second
// node: all as pinned passes; a code hash the first node lied about when
// it was pinned (here one recorded wrong) is named, exit status 3.
func TestPinCheck(t *testing.T) {
	t.Parallel()
	h := newHostileClaim(t)
	second := httptest.NewServer(h.Sandbox.Chain.RPCHandler())
	t.Cleanup(second.Close)

	s := *h.Session
	r := runCLI(t, &s, nil, "pin", "check", second.URL)
	if r.code != 0 || !strings.Contains(r.stdout, "every pin matches the second node") || strings.Contains(r.stdout, "DIFFERS") {
		t.Fatalf("honest pins: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	lied := s.Profile.Pins.Staking[0]
	s.Profile.Pins.CodeHashes = maps.Clone(s.Profile.Pins.CodeHashes)
	s.Profile.Pins.CodeHashes[lied] = "0x" + strings.Repeat("11", 32)
	r = runCLI(t, &s, nil, "pin", "check", second.URL)
	if r.code != 3 || !strings.Contains(r.stdout, lied+"  DIFFERS: code hash 0x") || !strings.Contains(r.stderr, "1 pins differ from the second node's answer") {
		t.Errorf("a pin the first node lied about: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, &s, nil, "pin", "check", "file:///etc/passwd"); r.code != 2 {
		t.Errorf("a URL that is no node's: exit %d\n%s", r.code, r.stderr)
	}
}

package cli

import (
	"strings"
	"testing"
)

// TestAccountListOnTheEmbeddedSandbox: the embedded sandbox's demo
// keystore is gone when the command ends, so its accounts are listed
// without paths into it (they named files nobody could open after), and
// a line says how to keep them.
func TestAccountListOnTheEmbeddedSandbox(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	dir := s.Fixtures.KeystoreDir
	r := runCLI(t, s, nil, "account", "list")
	if r.code != 0 || strings.Contains(r.stdout, dir) || !strings.Contains(r.stdout, s.Fixtures.Wallets[0].Address) || !strings.Contains(r.stdout, "allot sandbox --keystore-dir DIR") {
		t.Fatalf("account list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, s, nil, "account", "list", "-o", "json")
	if r.code != 0 || strings.Contains(r.stdout, dir) || !strings.Contains(r.stdout, `"keystore": null`) {
		t.Fatalf("account list -o json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

package cli

import (
	"strings"
	"testing"

	"allot/api/sandbox"
)

// TestUpcomingNamesTheToken: each amount of `allot upcoming` is named
// with its token as the dashboard's header names it, the token found by
// the vester that holds the allocation: MRD for the first token's, HBR
// for the second's, in the table, the totals and -o json. Before, the
// table's amounts were bare.
func TestUpcomingNamesTheToken(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	mrd := stateAllocation(t, s, sandbox.StateActive)
	hbr := stateAllocation(t, s, sandbox.StateClaimedInPart)

	r := runCLI(t, s, nil, "upcoming", mrd, hbr, "--days", "400")
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(r.stdout, "\n") {
		for id, unit := range map[string]string{mrd: "MRD", hbr: "HBR"} {
			if strings.Contains(line, id) {
				seen[id] = true
				if !strings.HasSuffix(strings.TrimSpace(line), " "+unit) {
					t.Errorf("an unlock of %s not in %s: %q", id, unit, line)
				}
			}
		}
	}
	if !seen[mrd] || !seen[hbr] {
		t.Fatalf("no unlock of both:\n%s", r.stdout)
	}
	_, weeks, _ := strings.Cut(r.stdout, "Per week")
	if !strings.Contains(weeks, " MRD\n") || !strings.Contains(weeks, " HBR\n") {
		t.Errorf("the totals do not name their tokens:\n%s", weeks)
	}

	r = runCLI(t, s, nil, "upcoming", mrd, hbr, "--days", "400", "-o", "json")
	var out upcomingOutput
	decodeJSON(t, r, &out)
	for _, u := range out.Unlocks {
		if want := map[string]string{mrd: "MRD", hbr: "HBR"}[u.Allocation]; u.Symbol != want {
			t.Errorf("unlock of %s: symbol %q, want %q", u.Allocation, u.Symbol, want)
		}
	}
	for _, tot := range append(out.Weeks, out.Months...) {
		if tot.Symbol != "MRD" && tot.Symbol != "HBR" {
			t.Errorf("total %+v names no token", tot)
		}
	}
}

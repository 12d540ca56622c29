package cli

import (
	"encoding/csv"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"allot/api/sandbox"
	"allot/core/journal"
)

// TestUpcoming: on the embedded sandbox, the unlocks ahead of an active
// allocation, exact (each one's vested is the one before plus its amount,
// the totals add up), none of a cancelled or a revoked one; the followed
// allocations when none is given, and what to do when none is; CSV; an
// iCalendar file whose UIDs stay the same when written again.
func TestUpcoming(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	active := stateAllocation(t, s, sandbox.StateActive)
	cancelled := stateAllocation(t, s, sandbox.StateCancelled)
	revoked := stateAllocation(t, s, sandbox.StateRevoked)

	r := runCLI(t, s, nil, "upcoming")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "no allocation to list") || !strings.Contains(r.stderr, "f on the allocation screen") {
		t.Errorf("nothing followed: exit %d\n%s", r.code, r.stderr)
	}

	r = runCLI(t, s, nil, "upcoming", active, cancelled, revoked, "--days", "400", "-o", "json")
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var out upcomingOutput
	decodeJSON(t, r, &out)
	if len(out.Unlocks) == 0 {
		t.Fatalf("no unlock of the active allocation in 400 days:\n%s", r.stdout)
	}
	vested, sum := (*big.Int)(nil), new(big.Int)
	for _, u := range out.Unlocks {
		if u.Allocation != active {
			t.Errorf("an unlock of %s, which is not active", u.Allocation)
		}
		amt, _ := new(big.Int).SetString(u.AmountWei, 10)
		v, _ := new(big.Int).SetString(u.VestedWei, 10)
		if vested != nil && new(big.Int).Add(vested, amt).Cmp(v) != 0 {
			t.Errorf("unlock at %s: %s vested after %s + %s", u.Time, v, vested, amt)
		}
		if !isoTime.MatchString(u.Time) || u.Token == "" || u.UID != active+"-"+strings.NewReplacer("-", "", ":", "", ".000", "").Replace(u.Time)+"@allot" {
			t.Errorf("unlock %+v", u)
		}
		vested = v
		sum.Add(sum, amt)
	}
	for name, totals := range map[string][]totalJSON{"weeks": out.Weeks, "months": out.Months} {
		got := new(big.Int)
		for _, tot := range totals {
			amt, _ := new(big.Int).SetString(tot.AmountWei, 10)
			got.Add(got, amt)
		}
		if got.Cmp(sum) != 0 {
			t.Errorf("%s add up to %s, the unlocks to %s", name, got, sum)
		}
	}
	states := map[string]string{}
	for _, a := range out.Allocations {
		states[a.ID] = a.State
		if a.Error != "" || a.Unchecked != "" {
			t.Errorf("allocation %+v", a)
		}
	}
	if states[active] != "active" || states[cancelled] != "cancelled" || states[revoked] != "revoked" {
		t.Errorf("states = %v", states)
	}

	r = runCLI(t, s, nil, "upcoming", revoked, cancelled)
	if r.code != ExitOK || !strings.Contains(r.stdout, revoked+" is revoked: nothing of it unlocks") ||
		!strings.Contains(r.stdout, cancelled+" is cancelled: nothing unlocks after its cancel time") {
		t.Errorf("table of the stopped ones: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// Followed from the dashboard: listed when no id is given.
	j, err := journal.Open(s.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.SetFollowed(s.Deployment(), active, true); err != nil {
		t.Fatal(err)
	}
	ics := filepath.Join(t.TempDir(), "unlocks.ics")
	r = runCLI(t, s, nil, "upcoming", "--days", "400", "-o", "csv", "--ics", ics)
	if r.code != ExitOK {
		t.Fatalf("followed: exit %d\n%s", r.code, r.stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(rows) != len(out.Unlocks)+1 || strings.Join(rows[0], ",") != "time,allocation,percent,amount,token,symbol" {
		t.Fatalf("csv (%v):\n%s", err, r.stdout)
	}
	first, err := os.ReadFile(ics)
	if err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, s, nil, "upcoming", "--days", "400", "--ics", ics); r.code != ExitOK {
		t.Fatalf("again: exit %d\n%s", r.code, r.stderr)
	}
	second, _ := os.ReadFile(ics)
	uids := regexp.MustCompile(`(?m)^UID:.*\r$`)
	if a, b := uids.FindAllString(string(first), -1), uids.FindAllString(string(second), -1); len(a) != len(out.Unlocks) || strings.Join(a, "") != strings.Join(b, "") {
		t.Errorf("UIDs differ between two exports, or are not one an unlock:\n%q\n%q", a, b)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(first), "\r\n"), "\r\n") {
		if len(l) > 75 || strings.ContainsAny(l, "\r\n") {
			t.Errorf("not an RFC 5545 content line: %q", l)
		}
	}
}

// TestUpcomingTableAsTheDashboard: allot upcoming's table writes an unlock
// and a total as the dashboard's :upcoming does, four decimals at most,
// rounded down ("201.9628 MRD", not "201.962833333333333334"); -o csv
// keeps the exact figure.
func TestUpcomingTableAsTheDashboard(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	id := "0b2a2405-539d-518e-8b44-38468f36a63f" // unlocks of 3.5417%: repeating decimals
	r := runCLI(t, s, nil, "upcoming", id)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "201.9628  ") || strings.Contains(r.stdout, "201.96283") {
		t.Errorf("want 201.9628 as the dashboard writes it:\n%s", r.stdout)
	}
	csv := runCLI(t, s, nil, "upcoming", id, "-o", "csv")
	if !strings.Contains(csv.stdout, ",201.962833333333333334,") {
		t.Errorf("the CSV lost the exact amount:\n%s", csv.stdout)
	}
}

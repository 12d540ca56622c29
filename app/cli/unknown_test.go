package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session/sessiontest"
)

// TestUnknownWriteChecked: a write whose answer comes garbled (the
// sandbox applied it) is checked before the command ends, as the embedded
// sandbox ends with it: the error says the service applied it, and the
// journal lists the write as applied, no longer as unknown.
func TestUnknownWriteChecked(t *testing.T) {
	t.Parallel()
	s, err := embedded.Sandbox(sandbox.Options{Faults: sandbox.Faults{Malformed: 1, Seed: 3}, KeystoreDir: t.TempDir()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	n := func(v string) api.Number { d, _ := api.ParseAmount(v); return d }
	body, _ := json.Marshal(api.ScheduleRequest{TokenID: s.TokenIDs[0], Name: "Team", Description: "4 years",
		UnlockAtStart: n("0"), Cliff: api.CliffRequest{Value: n("0.25"), Duration: n("12")}, RoundingMode: "FLOOR",
		Pieces: []api.SchedulePiece{{Name: "monthly", Portion: n("0.75"), StartDelay: api.ValueOf{Value: n("12")},
			Periodic: &api.PeriodConf{Length: api.ValueOf{Value: n("36")}, Frequency: api.ValueOf{Value: n("1")}, DayOfMonth: 1}}}})
	path := filepath.Join(t.TempDir(), "schedule.json")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, s, nil, "schedule", "create", "--body", path)
	if r.code == ExitOK || !strings.Contains(r.stderr, "checked: the service applied it") {
		t.Fatalf("exit %d, stderr %q: want a failure that says the check found the schedule applied", r.code, r.stderr)
	}
	writes := journal.Writes(journaltest.Entries(t, s.StateDir))
	if len(writes) != 1 || !writes[0].Settled() || writes[0].Outcome.Status != act.StatusApplied {
		t.Errorf("journal: %+v, want the one write settled as %q", writes, act.StatusApplied)
	}
}

// TestUnknownWriteWithoutLedgerSaysWhy: on a deployment that keeps no
// ledger (here the sandbox behind a server, as `allot sandbox` or a real
// deployment is reached), a write whose answer came unreadable is still
// checked before the command ends, and the error says what the check can
// and cannot tell: the service's interface lists no schedules, so a second
// one may be created; the operators are the ones to ask. Before, the
// error promised a check that never ran.
func TestUnknownWriteWithoutLedgerSaysWhy(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	h.Rewrite("/schedules/create", func(r map[string]any) { r["id"] = 5 }) // an answer that cannot be read
	s := h.Session
	n := func(v string) api.Number { d, _ := api.ParseAmount(v); return d }
	body, _ := json.Marshal(api.ScheduleRequest{TokenID: s.TokenIDs[0], Name: "Team", Description: "4 years",
		UnlockAtStart: n("0"), Cliff: api.CliffRequest{Value: n("0.25"), Duration: n("12")}, RoundingMode: "FLOOR",
		Pieces: []api.SchedulePiece{{Name: "monthly", Portion: n("0.75"), StartDelay: api.ValueOf{Value: n("12")},
			Periodic: &api.PeriodConf{Length: api.ValueOf{Value: n("36")}, Frequency: api.ValueOf{Value: n("1")}, DayOfMonth: 1}}}})
	path := filepath.Join(t.TempDir(), "schedule.json")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, s, nil, "schedule", "create", "--body", path)
	for _, want := range []string{"allot cannot check", "has no operation that lists them", "a second one may be created", "operators"} {
		if r.code == ExitOK || !strings.Contains(r.stderr, want) {
			t.Fatalf("exit %d, stderr %q: want it to say %q", r.code, r.stderr, want)
		}
	}
	writes := journal.Writes(journaltest.Entries(t, s.StateDir))
	if len(writes) != 1 || writes[0].Settled() {
		t.Errorf("journal: %+v, want the one write still unknown", writes)
	}
}

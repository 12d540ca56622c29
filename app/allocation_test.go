package app

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/core/config"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/views/widget"
)

// newFlowWide drives the dashboard on s at 200x50, where a check's reason
// fits on one line, until first shows.
func newFlowWide(t *testing.T, s *session.Session, first string) *flow {
	t.Helper()
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(200, 50))}
	return f.wait(first)
}

// TestAllocationGlobalKeys: the allocation screen does not trap the user:
// until the id field is edited (/, i, enter), tab, shift+tab, 1-6, : and
// esc do what they do everywhere; while it is edited they are typed; esc
// stops editing.
func TestAllocationGlobalKeys(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("3").wait("Demo allocations of the embedded sandbox")
	f.key(tea.KeyTab).wait("[4 Transactions]")
	f.key(tea.KeyShiftTab).wait("[3 Allocation]")
	f.runes("2").wait("[2 Pools]")
	f.runes("3").wait("[3 Allocation]")
	f.runes(":").wait("tab completes").key(tea.KeyEsc)
	f.key(tea.KeyEsc) // nothing to close: the screen stays

	// Editing: the same keys are typed into the field.
	f.runes("i").wait("esc stops")
	f.runes("12").wait("Allocation: 12")
	f.key(tea.KeyEsc).wait("/ or i: type an id")
	f.runes("1").wait("[1 Contracts]")
	f.runes("3").wait("[3 Allocation]")
	f.runes("/").wait("esc stops").key(tea.KeyCtrlU)
	f.typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	f.key(tea.KeyTab).wait("[4 Transactions]")
	f.quit()
}

// TestAllocationStates: a sound allocation of the sandbox, picked from the
// demo list, shows PASS for the leaf, the root (naming the vester found) and
// the schedule, with what was withdrawn and what is claimable.
func TestAllocationStates(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("3").wait(f.s.Fixtures.AllocationIDs[0])
	f.key(tea.KeyDown).key(tea.KeyEnter).wait("Unlock schedule")
	for _, want := range []string{"✓ PASS  held by vester", "✓ PASS  calendar", "Withdrawn      0", "Claimable now  5,", "allocation " + f.s.Fixtures.AllocationIDs[0] + ": PASS"} {
		f.wait(want)
	}
	if strings.Contains(f.seen.String()[f.mark:], "✗ FAIL") {
		t.Error("a sound allocation shows a FAIL")
	}
	f.quit()
}

// TestAllocationNotChecked: without a chain the root is NOT CHECKED, with
// the reason, and what was withdrawn is unknown.
func TestAllocationNotChecked(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	s.Chain = nil
	f := newFlowWide(t, s, "Team & Advisors Vesting")
	f.runes("3").runes("/").typ(s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	f.wait(`? NOT CHECKED  profile "sandbox" has no rpc_url`).wait("unknown: no vester was established for the proof").wait(": NOT CHECKED")
	f.quit()
}

// TestAllocationNoVester: when no contract of the profile's tokens holds
// the root (here, a profile of the sandbox's other token), the root check
// FAILS and says so; it is not "not checked".
func TestAllocationNoVester(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	s.TokenIDs = s.TokenIDs[1:]
	// Nor does the profile pin a vester that holds it: the embedded
	// sandbox pins those of both its tokens.
	s.Profile.Pins = config.Pins{}
	f := newFlowWide(t, s, "Harbor Ecosystem Vesting")
	f.runes("3").runes("/").typ(s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	f.wait("✗ FAIL  no vester of this token holds this root")
	f.quit()
}

// TestAllocationLookupErrors: a failed lookup's error goes once a later
// lookup passes, and an id the service does not know is not offered again
// as recent, here or in the journal.
func TestAllocationLookupErrors(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	unknown := "00000000-0000-4000-8000-000000000000"
	f.runes("3").runes("/").typ("nope").key(tea.KeyEnter).wait("is not a UUID")
	f.runes("/").key(tea.KeyCtrlU).typ(unknown).key(tea.KeyEnter).wait("allocation: ")
	f.runes("/").key(tea.KeyCtrlU).typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule").wait(": PASS")
	m := f.quit()
	if strings.Contains(m.View(), "allocation: ") || m.lastErr != nil {
		t.Errorf("the failed lookup's error stays after one passed: %v\n%s", m.lastErr, m.View())
	}
	for _, e := range journaltest.Of(journaltest.Entries(t, f.s.StateDir), journal.KindLookup, "") {
		if e.Ref != f.s.Fixtures.AllocationIDs[0] {
			t.Errorf("journaled lookup of %q, which failed", e.Ref)
		}
	}
	// The next run offers the good id alone as recent.
	g := newFlowOn(t, f.s)
	g.runes("3").wait("Recent lookups:")
	recent := g.seen.String()[g.mark:]
	recent = recent[strings.Index(recent, "Recent lookups:"):]
	if strings.Contains(recent, unknown) || !strings.Contains(recent, f.s.Fixtures.AllocationIDs[0]) {
		t.Errorf("recent lookups:\n%s", recent)
	}
	g.quit()
}

package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api/sandbox"
)

// TestAllocationLife: the demo list says the state each seeded allocation
// was left in, and looking one up in each state shows what the vester
// keeps of it: a claim in part, a cancel and when, a revoke, a transfer to
// another wallet, a vester too poor to pay it all, and what can be claimed
// then.
func TestAllocationLife(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	f := newFlowWide(t, s, "Team & Advisors Vesting")
	fx := s.Fixtures
	byState := map[string]string{}
	for _, id := range fx.AllocationIDs {
		if _, ok := byState[fx.AllocationStates[id]]; !ok {
			byState[fx.AllocationStates[id]] = id
		}
	}
	f.runes("3").wait("(state as seeded)")
	for _, words := range []string{"claimed in part", "cancelled", "revoked", "transferred", "underfunded", "through handler"} {
		f.wait(words)
	}
	for _, tc := range []struct {
		state string
		want  []string
	}{
		{sandbox.StateClaimedInPart, []string{"State          active · claimed in part", "Claimable now  "}},
		{sandbox.StateCancelled, []string{"State          CANCELLED at ", ": vesting stopped then", "Vested         ", "as the vester counts it"}},
		{sandbox.StateRevoked, []string{"State          REVOKED: nothing of it vests", "Claimable now  0"}},
		{sandbox.StateTransferred, []string{"transferred: not the leaf's beneficiary"}},
		{sandbox.StateUnderfunded, []string{"UNDERFUNDED: less than the "}},
	} {
		id, ok := byState[tc.state]
		if !ok {
			t.Fatalf("the fixtures name no %s allocation", tc.state)
		}
		f.runes("n").typ(id).key(tea.KeyEnter).wait("allocation " + id + ": PASS")
		for _, want := range tc.want {
			f.waitFrom(f.mark, want)
		}
	}
	f.quit()
}

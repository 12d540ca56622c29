package holder

import (
	"slices"
	"strings"

	"allot/api/sandbox"
	"allot/internal/sanitize"
	"allot/views"
)

// demoAllocations are the embedded sandbox's allocations a newcomer can
// look up, at most views.MaxRecent: the first of them as the seed lists
// them (the ones every example starts from), and one in each other state
// the seed left an allocation in on its vester, so that each state is a
// pick away.
func demoAllocations(fx *sandbox.Fixtures) []string {
	if fx == nil {
		return nil
	}
	var others []string
	seen := map[string]bool{}
	for _, id := range slices.Concat(fx.AllocationIDs, fx.LifeAllocationIDs) {
		state := fx.AllocationStates[id]
		if state != "" && state != sandbox.StateActive && !seen[state] {
			seen[state] = true
			others = append(others, id)
		}
	}
	room := max(views.MaxRecent-len(others), 0)
	var out []string
	for _, id := range fx.AllocationIDs {
		if len(out) == room {
			break
		}
		if !slices.Contains(others, id) {
			out = append(out, id)
		}
	}
	out = append(out, others...)
	return out[:min(len(out), views.MaxRecent)]
}

// demoState says in words the state the seed left a demo allocation in:
// "claimed in part", "through handler"; empty when the fixtures do not
// say.
func demoState(fx *sandbox.Fixtures, id string) string {
	if fx == nil {
		return ""
	}
	return sanitize.Line(strings.ReplaceAll(fx.AllocationStates[id], "-", " "))
}

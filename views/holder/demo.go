package holder

import (
	"slices"
	"strings"

	"allot/internal/sanitize"
	"allot/views"
)

// demoAllocations are the embedded sandbox's allocations a newcomer can
// look up, at most views.MaxRecent: the first of its plain allocations (the
// ones every example starts from), then one of each other state the seed
// left an allocation in on its vester (the fixtures' LifeAllocationIDs), so
// that each state is a pick away. None on a real deployment.
func demoAllocations(ctx *views.Context) []string {
	fx := ctx.Session.Fixtures
	if fx == nil {
		return nil
	}
	var others []string
	seen := map[string]bool{}
	for _, id := range fx.LifeAllocationIDs {
		if state := fx.AllocationStates[id]; !seen[state] {
			seen[state] = true
			others = append(others, id)
		}
	}
	others = others[:min(len(others), views.MaxRecent)]
	plain := slices.DeleteFunc(slices.Clone(fx.AllocationIDs), func(id string) bool { return slices.Contains(others, id) })
	return append(plain[:min(len(plain), views.MaxRecent-len(others))], others...)
}

// demoState says in words the state the seed left a demo allocation in:
// "claimed in part", "through handler"; empty on a real deployment.
func demoState(ctx *views.Context, id string) string {
	fx := ctx.Session.Fixtures
	if fx == nil {
		return ""
	}
	return sanitize.Line(strings.ReplaceAll(fx.AllocationStates[id], "-", " "))
}

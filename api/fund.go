package api

import "strings"

// RepeatedAllocation returns the first two of a funding's allocation ids,
// in order, that name the same allocation (compared as UUIDs are, case
// and surrounding blanks aside); ok is false when each names its own. Two
// items for one allocation are allowed, as the service funds each, but
// are far more often a slip than meant: the dashboard and the CLI both
// warn of them before anything is sent.
func RepeatedAllocation(ids []string) (first, second int, ok bool) {
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		id = strings.ToLower(strings.TrimSpace(id))
		if id == "" {
			continue
		}
		if j, dup := seen[id]; dup {
			return j, i, true
		}
		seen[id] = i
	}
	return 0, 0, false
}

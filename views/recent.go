package views

import (
	"allot/api"
	"allot/internal/journal"
)

// MaxRecent is how many recent lookups a screen offers;
// recentTail is how much of the journal's end is read to find them.
const (
	MaxRecent  = 8
	recentTail = 256 << 10
)

// RecentLookups are the allocations looked up lately on deployment d,
// newest first: ids of another deployment mean nothing here.
func RecentLookups(j *journal.Journal, d journal.Deployment) []string {
	if j == nil {
		return nil
	}
	// The newest lookups are at the end: a bounded tail keeps opening a
	// screen cheap however long the journal grows.
	res, err := j.ReadTail(recentTail)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i := len(res.Entries) - 1; i >= 0 && len(out) < MaxRecent; i-- {
		e := res.Entries[i]
		if e.Kind == journal.KindLookup && d.Owns(e) && !seen[e.Ref] && api.CheckUUID("id", e.Ref) == nil {
			seen[e.Ref] = true
			out = append(out, e.Ref)
		}
	}
	return out
}

package journal

import "allot/api"

// recentTail is how much of the journal's end is read to find the recent
// lookups: the newest are at the end, and a bounded tail keeps opening a
// screen cheap however long the journal grows.
const recentTail = 256 << 10

// RecentLookups are the allocations looked up lately on deployment d,
// newest first, each once, at most max: ids of another deployment mean
// nothing here (those of an earlier world of the embedded sandbox name
// the same seeded allocations, and are kept), and a ref that is not an
// allocation id is skipped. They are suggestions: a journal that cannot
// be read (or none) offers none.
func (j *Journal) RecentLookups(d Deployment, max int) []string {
	if j == nil {
		return nil
	}
	res, err := j.ReadTail(recentTail)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i := len(res.Entries) - 1; i >= 0 && len(out) < max; i-- {
		e := res.Entries[i]
		if e.Kind == KindLookup && d.SameService(e) && !seen[e.Ref] && api.CheckUUID("id", e.Ref) == nil {
			seen[e.Ref] = true
			out = append(out, e.Ref)
		}
	}
	return out
}

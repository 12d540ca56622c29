package api

import (
	"fmt"
	"strings"

	"allot/internal/sanitize"
)

// MaxNamedPools bounds the ids a NoPoolError keeps of the pools an
// ambiguous name fits: enough to pick one, not a hostile service's
// thousands.
const MaxNamedPools = 5

// NoPoolError is a pool id or name that names no one pool of a token:
// none, or more than one, which PoolByRef does not choose between.
type NoPoolError struct {
	Ref string
	// IDs are the first MaxNamedPools pools the name fits, when more than
	// one does, as the service gave them (sanitize before printing);
	// More counts the others.
	IDs  []string
	More int
}

func (e *NoPoolError) Error() string {
	if len(e.IDs) == 0 {
		return fmt.Sprintf("no pool %q in this token", e.RefText())
	}
	return fmt.Sprintf("%q names more than one pool of this token: open one by its id: %s", e.RefText(), e.IDList())
}

// IDList is the ids of the pools an ambiguous name fits, sanitized and
// comma-separated, "…" standing for those past MaxNamedPools.
func (e *NoPoolError) IDList() string {
	ids := make([]string, 0, len(e.IDs)+1)
	for _, id := range e.IDs {
		ids = append(ids, sanitize.Truncate(id, 60))
	}
	if e.More > 0 {
		ids = append(ids, "…")
	}
	return strings.Join(ids, ", ")
}

// RefText is e.Ref as the error quotes it, sanitized and cut (a user may
// paste anything), for callers that word the error their own way.
func (e *NoPoolError) RefText() string { return sanitize.Truncate(e.Ref, 60) }

// PoolByRef is the pool among pools whose id is ref, else the one named
// ref exactly, else the one named ref but for case (a pool listed without
// an id is never one: nothing could be read of it). A ref that fits no
// pool, or whose name fits more than one, is a *NoPoolError: the dashboard
// and the command line never guess between two pools.
func PoolByRef(pools []Pool, ref string) (Pool, error) {
	var exact, folded []int
	for i, p := range pools {
		switch {
		case p.ID == "":
			// Nothing to read or stake in: a hostile list's, never picked
			// (an empty ref would fit it).
		case p.ID == ref:
			return p, nil
		case p.Name == ref:
			exact = append(exact, i)
		case strings.EqualFold(p.Name, ref):
			folded = append(folded, i)
		}
	}
	fits := exact
	if len(fits) == 0 {
		fits = folded
	}
	switch len(fits) {
	case 0:
		return Pool{}, &NoPoolError{Ref: ref}
	case 1:
		return pools[fits[0]], nil
	}
	e := &NoPoolError{Ref: ref, More: max(len(fits)-MaxNamedPools, 0)}
	for _, i := range fits[:len(fits)-e.More] {
		e.IDs = append(e.IDs, pools[i].ID)
	}
	return Pool{}, e
}

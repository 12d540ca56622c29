package journal

import (
	"errors"
	"strings"
)

// Deployment is the service, and the chain, a profile works with. Two
// profiles may share a name and not a deployment (the embedded sandbox
// and a configured profile named "sandbox"): what one journaled must not
// show as the other's.
type Deployment struct {
	Profile string
	BaseURL string
	ChainID uint64
	// World tells apart runs of a deployment that starts from nothing each
	// time under the same address: the embedded sandbox is a new world on
	// each start, and what was written in one is not of the next. "" for a
	// deployment that persists.
	World string
}

// Stamp marks e as written for d.
func (d Deployment) Stamp(e Entry) Entry {
	e.Profile, e.BaseURL, e.ChainID, e.World = d.Profile, normalURL(d.BaseURL), d.ChainID, d.World
	return e
}

// Owns reports whether e was written for d: the same base URL, chain id
// and world, whatever the profile is called. An entry from before entries
// named their deployment has only its profile's name to go by: it is d's
// when the names match, as every list read it before, unless d is a world
// of its own (an older entry is of an earlier one).
func (d Deployment) Owns(e Entry) bool {
	return e.World == d.World && d.SameService(e)
}

// SameService reports whether e was written for d's service and chain,
// in whichever of its worlds: for what holds across them (the embedded
// sandbox's seeded allocations are the same in every run).
func (d Deployment) SameService(e Entry) bool {
	if e.BaseURL == "" {
		return e.Profile == d.Profile
	}
	return e.BaseURL == normalURL(d.BaseURL) && e.ChainID == d.ChainID
}

// normalURL writes a base URL one way: "https://x/" and "https://x" are
// the same service.
func normalURL(u string) string { return strings.TrimRight(strings.TrimSpace(u), "/") }

// Write is a write request as the journal tells it, with its outcome.
type Write struct {
	Request Entry
	// Outcome is nil when none was recorded: the program ended (quit, a
	// crash) while the request was in flight. Such a write may have been
	// applied, as one whose outcome says unknown.
	Outcome *Entry
}

// Settled reports whether the write's outcome is known: answered, or
// refused.
func (w Write) Settled() bool {
	return w.Outcome != nil && w.Outcome.Status != StatusUnknown
}

// StatusUnknown is the outcome of a write whose answer never came.
const StatusUnknown = "unknown"

// What a check found about a write whose answer was lost.
const (
	StatusApplied    = "applied (checked)"
	StatusNotApplied = "not applied (checked)"
)

// StatusResent settles a write whose answer was lost when the user sends
// it again: the later request is the one to follow; this one may have
// been applied too.
const StatusResent = "resent"

// Writes pairs every write request in entries with its outcome, in the
// order the requests were made. An outcome goes to the request with its
// Write id; one without (an older journal) to the oldest request of the
// same Op and Ref still waiting for one.
func Writes(entries []Entry) []Write {
	var out []Write
	byID := map[string]int{}
	waiting := map[[2]string][]int{}
	signed := map[string]bool{} // ops of signatures, whose outcomes are not of writes
	for _, e := range entries {
		switch e.Kind {
		case KindSignature:
			signed[e.Op] = true
		case KindRequest:
			if e.Write != "" {
				byID[e.Write] = len(out)
			} else {
				k := [2]string{e.Op, e.Ref}
				waiting[k] = append(waiting[k], len(out))
			}
			out = append(out, Write{Request: e})
		case KindOutcome:
			i, ok := byID[e.Write]
			if e.Write == "" {
				k := [2]string{e.Op, e.Ref}
				if q := waiting[k]; len(q) > 0 {
					i, ok, waiting[k] = q[0], true, q[1:]
				}
			}
			outcome := e
			switch {
			case !ok && signed[e.Op]:
			case !ok:
				// Its request's line was lost (damaged): the outcome still
				// says what was written.
				request := e
				request.Kind, request.Status, request.Data = KindRequest, "", nil
				out = append(out, Write{Request: request, Outcome: &outcome})
			case out[i].Outcome == nil || out[i].Outcome.Status == StatusUnknown:
				// A later outcome (a check that found out) settles an
				// unknown one.
				out[i].Outcome = &outcome
			}
		}
	}
	return out
}

// ErrNoJournal is the error of a query with no journal to read.
var ErrNoJournal = errors.New("the local journal is not available")

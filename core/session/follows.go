package session

import (
	"errors"
	"fmt"
	"slices"

	"allot/core/journal"
)

// Follows are the allocations followed on a session's deployment, the one
// place the dashboard's screens and the commands (upcoming, watch) read
// them from and change them through: the profile's allocations, followed
// by configuration, then those followed with f, kept beside the journal.
// Each read is of the files as they are then, so a follow by another
// allot counts at the next read; in one dashboard a change is an event
// every screen that shows follows takes (views/holder's followedMsg).
type Follows struct {
	profile []string
	j       *journal.Journal
	d       journal.Deployment
}

// Follows are the allocations followed on s's deployment, those followed
// with f kept in j (nil: none can be, and none are read).
func (s *Session) Follows(j *journal.Journal) Follows {
	return Follows{profile: slices.Clone(s.Profile.Allocations), j: j, d: s.Deployment()}
}

// Follows are the allocations followed on p's deployment, read as a
// session's are but with no session opened: completion offers them.
func (p Peek) Follows() Follows {
	return Follows{profile: slices.Clone(p.profile.Allocations), j: journal.Look(p.StateDir), d: p.Deployment}
}

// ErrNoFollows: follows live beside the journal, which could not open.
var ErrNoFollows = errors.New("the state directory is unusable: nothing can be followed")

// IDs are the allocations followed: the profile's, then those followed
// with f, each once. err says why the latter could not be read; the
// profile's are there still.
func (f Follows) IDs() ([]string, error) {
	ids := slices.Clone(f.profile)
	more, err := f.j.Followed(f.d)
	for _, id := range more {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, err
}

// InProfile reports whether the profile lists id: only an edit of the
// configuration stops following it.
func (f Follows) InProfile(id string) bool { return slices.Contains(f.profile, id) }

// Set follows id (on) or stops following it; an allocation the profile
// lists cannot be unfollowed here, and the error says where it can.
func (f Follows) Set(id string, on bool) error {
	switch {
	case !on && f.InProfile(id):
		return fmt.Errorf("the profile's allocations list %s: remove it there to stop following it", id)
	case f.j == nil:
		return ErrNoFollows
	}
	return f.j.SetFollowed(f.d, id, on)
}

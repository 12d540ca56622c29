package session

import (
	"fmt"

	"allot/api"
)

// ReadOnlyError refuses an act of a read-only session: a signature, a
// transaction, a write of the service. It is errors.Is api.ErrReadOnly.
type ReadOnlyError struct {
	Profile string
	Why     string // "read_only = true in its profile" or "--read-only"
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("profile %s is read-only (%s): nothing is signed, sent or written", e.Profile, e.Why)
}

func (e *ReadOnlyError) Is(target error) bool { return target == api.ErrReadOnly }

// ReadOnlyFlag is why a session opened with Options.ReadOnly is.
const ReadOnlyFlag = "--read-only"

// readOnlyInProfile is why a profile with read_only = true is.
const readOnlyInProfile = "read_only = true in its profile"

// SetReadOnly makes every act of s impossible, for why: its client
// refuses writes, and Writable says so to whoever would sign or send. A
// session read-only already stays so for its first reason.
func (s *Session) SetReadOnly(why string) {
	if s.readOnly != "" {
		return
	}
	s.readOnly = why
	s.Profile.ReadOnly = true
	s.API = s.API.ReadOnly()
}

// ReadOnly reports whether the session may not act, and why.
func (s *Session) ReadOnly() (why string, ok bool) { return s.readOnly, s.readOnly != "" }

// Writable is nil when the session may sign, send and write, else the
// one-line refusal (a *ReadOnlyError). No session (a screen's test) may.
func (s *Session) Writable() error {
	if s == nil || s.readOnly == "" {
		return nil
	}
	return &ReadOnlyError{Profile: s.Name, Why: s.readOnly}
}

package app

import (
	"time"

	"allot/api/sandbox"
	"allot/core/embedded/embeddedtest"
)

// shared is the sandbox the tests that only read share, on the screens'
// clock: each opens a session of its own on it (shared.Session), and
// fails if it writes.
var shared = embeddedtest.NewShared(sandbox.Options{Clock: func() time.Time { return clock }})

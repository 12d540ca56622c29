package app

import (
	"os"
	"testing"
	"time"

	"allot/api/sandbox"
	"allot/core/embedded/embeddedtest"
)

// shared is the sandbox the tests that only read share, on the screens'
// clock: each opens a session of its own on it (shared.Session), and
// fails if it writes. TestMain stops it after the tests.
var shared = embeddedtest.NewShared(sandbox.Options{Clock: func() time.Time { return clock }})

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Close()
	os.Exit(code)
}

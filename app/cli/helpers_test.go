package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/embedded/embeddedtest"
	"allot/core/session"
)

// result is what one run of the command line gave.
type result struct {
	stdout, stderr string
	code           int
}

// runCLI runs allot's command line on s as a script would: no terminal on
// stdin, the environment environ.
func runCLI(t *testing.T, s *session.Session, environ map[string]string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{
		IO: IO{
			Stdin:  strings.NewReader(""),
			Stdout: &stdout,
			Stderr: &stderr,
			Getenv: func(k string) string { return environ[k] },
		},
		sess: s,
	}
	code := report(&stderr, run(context.Background(), e, args))
	if s == nil && e.sess != nil {
		e.sess.Close() // the session the command opened, as Main closes it
	}
	return result{stdout.String(), stderr.String(), code}
}

// shared is the embedded sandbox the tests that only read share: each
// opens a session of its own on it (shared.Session), and fails if it
// writes. TestMain stops it after the tests.
var shared = embeddedtest.NewShared(sandbox.Options{})

// sandboxSession opens the embedded sandbox, as allot does without a
// configuration, with its keystore and state in temporary directories,
// for a test that writes.
func sandboxSession(t *testing.T) *session.Session {
	t.Helper()
	s, err := embedded.Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// decodeJSON decodes a command's JSON output, which must be all of stdout.
func decodeJSON(t *testing.T, r result, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not the expected JSON: %v\n%s", err, r.stdout)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON value:\n%s", r.stdout)
	}
}

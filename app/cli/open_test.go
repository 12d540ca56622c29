package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"allot/core/journal"
)

// TestOpenJournalsOnlyWrites: every command opens its session through
// env.open, once; the journal is opened, in the session's state
// directory, only for a command that writes, and only after what the
// command needs (a token, a chain) is there.
func TestOpenJournalsOnlyWrites(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	path := filepath.Join(s.StateDir, journal.FileName)
	if r := runCLI(t, s, nil, "contracts"); r.code != ExitOK {
		t.Fatalf("contracts: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("contracts, which writes nothing, left a journal (%v)", err)
	}

	var stderr strings.Builder
	e := &env{IO: IO{Stdout: &stderr, Stderr: &stderr, Getenv: func(string) string { return "" }}, sess: s}
	first, err := e.open(context.Background(), opening{write: true})
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.open(context.Background(), opening{write: true})
	if err != nil {
		t.Fatal(err)
	}
	if first.rec == nil || first.rec != again.rec || first.Session != again.Session {
		t.Errorf("open twice gave two sessions or recorders: %p %p", first.rec, again.rec)
	}
	if first.rec.Journal == nil || first.rec.Journal.Path() != path {
		t.Errorf("the recorder journals to %v, want %s", first.rec.Journal, path)
	}
	if read, err := e.open(context.Background(), opening{}); err != nil || read.rec != nil {
		t.Errorf("a command that only reads: %v, or it was given the recorder", err)
	}

	noChain := shared.Session(t)
	noChain.Chain = nil
	e = &env{IO: IO{Stdout: &stderr, Stderr: &stderr, Getenv: func(string) string { return "" }}, sess: noChain}
	if _, err := e.open(context.Background(), opening{write: true, chain: "stake"}); err == nil || !strings.Contains(err.Error(), "stake needs an EVM node") {
		t.Errorf("no chain: %v, want stake refused for want of a node", err)
	}
	if e.rec != nil {
		t.Error("the journal was opened for a command refused before it could write")
	}
}

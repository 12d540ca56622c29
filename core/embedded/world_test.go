package embedded

import (
	"testing"

	"allot/api/sandbox"
	"allot/core/journal"
	"allot/core/session"
)

// TestEmbeddedSandboxRunsAreWorldsApart: the embedded sandbox is a new
// world on each start, so what one run journaled (a claim's transaction)
// is not listed by the next as if it were of its world.
func TestEmbeddedSandboxRunsAreWorldsApart(t *testing.T) {
	state := t.TempDir()
	j, err := journal.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	openRun := func() *session.Session {
		s, err := Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, state)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	first := openRun()
	tx := first.Deployment().Stamp(journal.Entry{Kind: journal.KindTransaction, Op: "claim", Ref: "0x01", Status: "success"})
	if err := j.Append(tx); err != nil {
		t.Fatal(err)
	}
	second := openRun()
	for _, c := range []struct {
		s    *session.Session
		want int
	}{{first, 1}, {second, 0}} {
		got, _, err := j.Transactions(c.s.Deployment())
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.want {
			t.Errorf("%d transactions listed, want %d: %+v", len(got), c.want, got)
		}
	}
}

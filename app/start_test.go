package app

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/session"
	"allot/views/widget"
)

// gatedOpener opens what gate is given, when it is given: the test holds
// the session's opening as long as it needs.
func gatedOpener() (session.Opener, chan<- func() (*session.Session, error)) {
	gate := make(chan func() (*session.Session, error), 1)
	return session.Opener{Name: session.SandboxProfile, Sandbox: true, Open: func() (*session.Session, error) {
		return (<-gate)()
	}}, gate
}

func startFlow(t *testing.T, open session.Opener) (*start, *flow) {
	st := startOpening(open, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, tm: teatest.NewTestModel(t, st, teatest.WithInitialTermSize(120, 36))}
	return st, f
}

func sandboxSession(t *testing.T) func() (*session.Session, error) {
	return func() (*session.Session, error) {
		return embedded.Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir())
	}
}

// TestFirstFrameBeforeTheSession: the dashboard draws its chrome and says
// the embedded sandbox is starting before the session is open, then shows
// the contracts once it is.
func TestFirstFrameBeforeTheSession(t *testing.T) {
	t.Parallel()
	open, gate := gatedOpener()
	st, f := startFlow(t, open)
	f.wait("starting the embedded sandbox…").wait("SANDBOX").wait("q quit")
	gate <- sandboxSession(t)
	f.wait("Team & Advisors Vesting")
	f.quit()
	if err := st.close(); err != nil {
		t.Fatal(err)
	}
}

// TestQuitWhileOpening: q quits while the session is still opening, and
// the session that opens after is closed, not left running.
func TestQuitWhileOpening(t *testing.T) {
	t.Parallel()
	open, gate := gatedOpener()
	st, f := startFlow(t, open)
	f.wait("starting the embedded sandbox…").runes("q")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	gate <- sandboxSession(t)
	if err := st.close(); err != nil {
		t.Fatal(err)
	}
	if st.dash != nil {
		t.Fatal("the dashboard took over after the quit")
	}
	if _, err := st.s.API.Contracts(context.Background(), st.s.TokenIDs[0]); err == nil {
		t.Fatal("the session opened after the quit still answers: it was not closed")
	}
}

// TestOpenFailureShown: a sandbox that cannot start says why in the
// dashboard, q still quits, and Run returns the error for the shell.
func TestOpenFailureShown(t *testing.T) {
	t.Parallel()
	open, gate := gatedOpener()
	st, f := startFlow(t, open)
	gate <- func() (*session.Session, error) {
		return nil, errors.New("start the embedded sandbox: sandbox chain: no \x1b]52;c;aGk=\x07memory")
	}
	f.wait("✗ start the embedded sandbox: sandbox chain: no").wait("q quit")
	f.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	out := f.tm.FinalOutput(t, teatest.WithFinalTimeout(10*time.Second))
	rest, _ := io.ReadAll(out)
	if b := append(f.seen.Bytes(), rest...); containsOSC(b) {
		t.Fatalf("the error reached the terminal unsanitized: %q", b)
	}
	if err := st.close(); err == nil || err.Error() != "start the embedded sandbox: sandbox chain: no \x1b]52;c;aGk=\x07memory" {
		t.Fatalf("close: %v, want the opening's error", err)
	}
}

func containsOSC(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		if b[i] == 0x1b && b[i+1] == ']' {
			return true
		}
	}
	return false
}

package app

import (
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/api/sandbox"
	"allot/internal/session"
	"allot/views/widget"
)

// TestQuitQuestionGoesWhenWorkEnds: q while the first load runs asks;
// once the load is done the question goes, and the program stays.
func TestQuitQuestionGoesWhenWorkEnds(t *testing.T) {
	t.Parallel()
	// The latency keeps the load running while q is pressed; nothing is
	// timed: the test waits for what is drawn.
	s, err := session.Sandbox(sandbox.Options{Faults: sandbox.Faults{Latency: 3 * time.Second}}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, m: m, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	f.wait("loading").runes("q").wait("Quit anyway? (y/N)")
	f.wait(quitWorkDone)
	if v := f.quit().View(); strings.Contains(v, "Quit anyway") {
		t.Errorf("the question stays after the work ended:\n%s", v)
	}
}

// TestHeaderNamesTheToken: on the embedded sandbox the header names the
// token by its name and symbol, not its id.
func TestHeaderNamesTheToken(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.wait("token Meridian (MRD)")
	// At 80 columns, with the account's countdown, the symbol alone.
	f.send(tea.WindowSizeMsg{Width: 80, Height: 24}).unlock().wait(" MRD │ 0x")
	if v := f.quit().View(); strings.Contains(v, "token "+shortID(f.s.TokenIDs[0])) {
		t.Errorf("the header still names the token by its id:\n%s", v)
	}
}

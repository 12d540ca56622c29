package app

// The status line's state: errors (kept for E), informational lines that
// fade, and the warnings allot started with.

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
)

// statusLife is how long an informational status line stays.
const statusLife = 6 * time.Second

// clearStatus fades the informational status line numbered seq.
type clearStatus struct{ seq int }

// warnings are the session's warnings, printed before the dashboard took
// the screen.
type warnings []string

func (w warnings) Error() string { return "Warnings when allot started:\n" + strings.Join(w, "\n") }

// warn shows the session's warnings: the first on the status line, all
// under E, there also below any later error.
func (m *Model) warn(w warnings) {
	m.warnings = w
	m.status, m.statusErr = "warning: "+sanitize.Line(w[0]), true
	if len(w) > 1 {
		// The count first: a long first warning is cut at the width.
		m.status = fmt.Sprintf("%d warnings: %s", len(w), sanitize.Line(w[0]))
	}
	m.setErr(w)
}

// inform shows an informational line, which fades after statusLife.
func (m *Model) inform(text string) tea.Cmd {
	m.status, m.statusErr = text, false
	m.setErr(nil)
	m.statusSeq++
	seq := m.statusSeq
	return tea.Tick(statusLife, func(time.Time) tea.Msg { return clearStatus{seq} })
}

// fail shows err as one line; E shows the details.
func (m *Model) fail(op string, err error) tea.Cmd {
	m.statusErr = true
	m.status = op + ": " + oneLine(err)
	m.setErr(err)
	return nil
}

// setErr keeps err for E. The details, when shown, follow it: a newer
// error replaces what they show, and none closes them, so that they never
// show an error that is no longer the last.
func (m *Model) setErr(err error) {
	m.lastErr = err
	switch {
	case err == nil:
		m.showErr = false
	case m.showErr:
		m.fillPage()
	}
}

// oneLine is the first line of an error, which the api package already
// words for people; a 401 or 403 names the key and what to do.
func oneLine(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return sanitize.Line(msg)
}

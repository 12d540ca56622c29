package app

// The status line's state: errors (kept for E), informational lines that
// fade, and the warnings allot started with.

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
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
	m.status, m.statusErr, m.statusPage = "warning: "+sanitize.Line(w[0]), true, nil
	m.errAtKey = m.keysSeen // as an error: a page's news waits for a key
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

// fail shows err as one line while the page on show is; E shows the
// details.
func (m *Model) fail(op string, err error) tea.Cmd {
	m.failOn(m.top(), op, err)
	return nil
}

// failOn shows err as one line while page is on show, or on every page
// when page is nil; E shows the details.
func (m *Model) failOn(page views.Screen, op string, err error) {
	m.status, m.statusErr, m.statusPage = op+": "+oneLine(err), true, page
	m.errAtKey = m.keysSeen
	m.setErr(err)
}

// shownStatus is the status line's text and whether it is an error: an
// error about a page not on show is left out, so that it does not read as
// about the page that is.
func (m *Model) shownStatus() (string, bool) {
	if m.statusErr && m.statusPage != nil && m.statusPage != m.top() {
		return "", false
	}
	return m.status, m.statusErr
}

// setErr keeps err for E. The details, when shown, follow it: a newer
// error replaces what they show, and none closes them, so that they never
// show an error that is no longer the last.
func (m *Model) setErr(err error) {
	m.lastErr = err
	switch {
	case err == nil && m.mode == modeErr:
		m.setMode(modeScreens)
	case err != nil && m.mode == modeErr:
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

// tag addresses what cmd yields, in a batch or a sequence alike, to page
// (views.Address): its answers reach it alone, and the status line shows
// an error only while the page it is about is on show, and a page's clear
// clears only its own.
func tag(page views.Screen, cmd tea.Cmd) tea.Cmd { return views.Address(page, cmd) }

// said shows a page's error or status message.
func (m *Model) said(page views.Screen, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case views.ErrorMsg:
		m.failOn(page, msg.Op, msg.Err)
	case widget.StatusMsg:
		if msg == (widget.StatusMsg{}) {
			m.clearFor(page)
			return nil
		}
		if !msg.Error {
			if _, isErr := m.shownStatus(); isErr && m.errAtKey == m.keysSeen {
				return nil // the error stays until the next key
			}
			return m.inform(msg.Text)
		}
		m.status, m.statusErr, m.statusPage = msg.Text, true, page // it stays until the next action
		m.errAtKey = m.keysSeen
		m.setErr(nil)
	}
	return nil
}

// clearFor takes what page said off the status line as it loads again:
// its error or warning, or an informational line (which would fade
// anyway); never another page's error, nor one about every page.
func (m *Model) clearFor(page views.Screen) {
	if m.statusErr && m.statusPage != page {
		return
	}
	m.status, m.statusErr, m.statusPage = "", false, nil
	m.setErr(nil)
}

package widget

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Scroll shows lines in a window of a given height, moved with ↑/↓, pgup/
// pgdn, home and end. When the lines do not fit, the window's last row says
// where it stands and how many lines remain below: a review read before a
// question is answered must not hide its end silently.
//
// The lines are the caller's, already wrapped to the width: Scroll never
// cuts or rewraps them.
type Scroll struct {
	Styles Styles

	lines         []string
	top           int
	width, height int
	// seenEnd: the window has shown the last line since Home.
	seenEnd bool
}

// SetLines replaces the lines, keeping the position where it still fits.
func (s *Scroll) SetLines(lines []string) {
	s.lines = lines
	s.clamp()
}

// SetSize sets the window: its width (the status row's) and how many rows
// it takes, the status row included.
func (s *Scroll) SetSize(w, h int) {
	s.width, s.height = w, max(h, 2) // a line and the status
	s.clamp()
}

// Home shows the first line again, as to a reader who has not yet read
// to the end (SeenEnd).
func (s *Scroll) Home() {
	s.top, s.seenEnd = 0, false
	s.clamp()
}

// SeenEnd reports whether every line has been in the window since Home:
// the lines fit, or the reader scrolled to the last. A question about
// the lines (sign this message?) waits for it.
func (s *Scroll) SeenEnd() bool { return s.seenEnd }

// Top is the index of the first line shown.
func (s *Scroll) Top() int { return s.top }

// Below is how many lines are under the window.
func (s *Scroll) Below() int { return max(len(s.lines)-s.top-s.page(), 0) }

// Help is the binding of the keys Key answers, for a screen's help, said
// to do desc; it is enabled only when there is something to scroll to.
func (s *Scroll) Help(desc string) key.Binding {
	b := key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown", "home", "end"), key.WithHelp("↑/↓/pgup/pgdn", desc))
	b.SetEnabled(s.top > 0 || s.Below() > 0)
	return b
}

// Key moves the window; it reports whether msg was a scrolling key.
func (s *Scroll) Key(msg tea.KeyMsg) bool {
	switch msg.String() {
	case "up":
		s.top--
	case "down":
		s.top++
	case "pgup":
		s.top -= s.page()
	case "pgdown":
		s.top += s.page()
	case "home":
		s.top = 0
	case "end":
		s.top = len(s.lines)
	default:
		return false
	}
	s.clamp()
	return true
}

// View returns the rows to draw: every line when they fit the height,
// otherwise a window of them and the status row.
func (s *Scroll) View() []string {
	if s.fits() {
		return s.lines
	}
	end := s.top + s.page()
	rows := append(make([]string, 0, s.height), s.lines[s.top:end]...)
	status := fmt.Sprintf("lines %d–%d of %d", s.top+1, end, len(s.lines))
	if below := len(s.lines) - end; below > 0 {
		status += fmt.Sprintf(" · ▼ %d more: ↓/pgdn scrolls", below)
	} else {
		status += " · ↑/pgup scrolls back"
	}
	return append(rows, s.Styles.Muted.Render(Truncate(status, s.width)))
}

func (s *Scroll) fits() bool { return len(s.lines) <= s.height }

// page is how many lines the window shows.
func (s *Scroll) page() int {
	if s.fits() {
		return len(s.lines)
	}
	return s.height - 1
}

func (s *Scroll) clamp() {
	s.top = min(max(s.top, 0), max(len(s.lines)-s.page(), 0))
	if s.height > 0 && s.Below() == 0 {
		s.seenEnd = true
	}
}

// Hardwrap breaks every line at width cells, wherever it must (a JSON body
// has long strings without spaces): nothing is cut, so a review shows every
// byte. The result reuses dst's storage.
func Hardwrap(dst, lines []string, width int) []string {
	dst = dst[:0]
	for _, l := range lines {
		if displayWidth(l) <= width {
			dst = append(dst, l)
			continue
		}
		dst = append(dst, strings.Split(ansi.Hardwrap(l, width, true), "\n")...)
	}
	return dst
}

package app

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestModesAreExclusive: the error details opened over the command line
// take the line's place; a key goes to the details, which are on, and is
// neither typed into the line nor obeyed by the screens; closed, the
// screens take keys again. The other way round, the command line opened
// over the help closes it.
func TestModesAreExclusive(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	press := func(k string) { m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}) }
	press(":")
	press("x")
	m.lastErr = errors.New("the pools could not load")
	m.openPage(modeErr)
	if m.mode != modeErr || m.cmdline.Focused() {
		t.Fatalf("mode %d, command line focused %v: both on", m.mode, m.cmdline.Focused())
	}
	if strings.Contains(m.statusLine(), ":x") {
		t.Errorf("the status line still shows the command line: %q", m.statusLine())
	}
	press("2") // a tab were the screens given it, typed were the line
	if m.active != tabContracts || m.cmdline.Value() != "x" || m.mode != modeErr {
		t.Fatalf("tab %d, line %q, mode %d: a key went past the details", m.active, m.cmdline.Value(), m.mode)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	press("2")
	if m.mode != modeScreens || m.active != tabPools {
		t.Fatalf("closed, mode %d and tab %d: the screens do not take keys", m.mode, m.active)
	}
	press("?")
	m.openCommandLine()
	if m.mode != modeCommand || m.mode.covers() || !m.cmdline.Focused() {
		t.Fatalf("mode %d, focused %v: the help stayed over the command line", m.mode, m.cmdline.Focused())
	}
	press("q") // typed, not quitting nor closing a page
	if m.cmdline.Value() != "q" || m.mode != modeCommand {
		t.Errorf("line %q, mode %d: q did not reach the command line", m.cmdline.Value(), m.mode)
	}
}

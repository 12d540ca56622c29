package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestHelpPageFooterOffersScrollOnlyWhenItScrolls: the help page's footer
// names its scroll (with home/end, which it answers) only when the help is
// taller than the page, and esc close always.
func TestHelpPageFooterOffersScrollOnlyWhenItScrolls(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 200})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	if m.mode != modeHelp {
		t.Fatal("? did not open the help")
	}
	if footer := m.footer(); strings.Contains(footer, "scroll") || !strings.Contains(footer, "esc close") {
		t.Errorf("the help fits, yet its footer is %q", footer)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	footer := m.footer()
	if !strings.Contains(footer, "scroll") || !strings.Contains(footer, "esc close") {
		t.Errorf("the help scrolls, yet its footer is %q", footer)
	}
	// home and end move the page: the binding the footer draws holds them.
	m.Update(tea.KeyMsg{Type: tea.KeyEnd})
	if m.page.Below() != 0 {
		t.Errorf("end left %d lines below", m.page.Below())
	}
}

package app

import (
	"io"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// TestPageClosingItselfLeavesOthers: the Unlock page closes itself when the
// key is decrypted, which may be after the user went to another tab and
// opened a page there; only the Unlock page closes, not the page on top.
func TestPageClosingItselfLeavesOthers(t *testing.T) {
	s, _ := journaled(t)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	unlock := views.NewUnlock(m.ctx)
	m.Update(views.NavigateMsg{Screen: unlock})
	first := m.active
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	if m.active == first {
		t.Fatal("2 did not switch tabs")
	}
	other := views.NewUnlock(m.ctx)
	m.Update(views.NavigateMsg{Screen: other})

	m.Update(views.BackMsg{Screen: unlock})

	if top := m.stacks[m.active]; top[len(top)-1] != other {
		t.Errorf("the page on top of the tab on show was closed instead of the Unlock page")
	}
	for _, p := range m.stacks[first] {
		if p == unlock {
			t.Errorf("the Unlock page is still open in its tab")
		}
	}
}

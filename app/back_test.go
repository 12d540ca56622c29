package app

import (
	"io"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/holder"
	"allot/views/widget"
)

// TestPageClosingItselfLeavesOthers: the Unlock page closes itself when the
// key is decrypted, which may be after the user went to another tab and
// opened a page there; only the Unlock page closes, not the page on top.
func TestPageClosingItselfLeavesOthers(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	unlock := holder.NewUnlock(m.ctx)
	m.Update(views.NavigateMsg{Screen: unlock})
	first := m.active
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	if m.active == first {
		t.Fatal("2 did not switch tabs")
	}
	other := holder.NewUnlock(m.ctx)
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

// TestFooterNamesEachKeyOnce: where the screen binds esc itself (a
// review's "n/esc no"), the footer does not also offer the global "esc
// back"; help stays first.
func TestFooterNamesEachKeyOnce(t *testing.T) {
	t.Parallel()
	help := key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help"))
	back := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back"))
	quit := key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit"))
	no := key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "no"))
	got := withoutKeysOf([]key.Binding{help, back, quit}, []key.Binding{no})
	if len(got) != 2 || got[0].Help().Key != "?" || got[1].Help().Key != "q" {
		var keys []string
		for _, b := range got {
			keys = append(keys, b.Help().Key)
		}
		t.Errorf("global keys left: %v, want [? q]", keys)
	}
}

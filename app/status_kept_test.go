package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
)

// TestNewsKeepsAKeysAnswer: a page's news (a verdict's status line) that
// comes after the error answering the last key leaves that error on the
// status line, where the news would have hidden it in the frame both fell
// in; after the next key, news shows again.
func TestNewsKeepsAKeysAnswer(t *testing.T) {
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	page := m.top()
	m.said(page, widget.StatusMsg{Text: "no key is unlocked: unlock one (u)", Error: true})
	m.said(page, widget.StatusMsg{Text: "allocation 1: PASS"})
	if text, isErr := m.shownStatus(); !isErr || text != "no key is unlocked: unlock one (u)" {
		t.Errorf("status %q (error %v) after the news, want the key's answer kept", text, isErr)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	m.said(page, widget.StatusMsg{Text: "allocation 2: PASS"})
	if text, isErr := m.shownStatus(); isErr || text != "allocation 2: PASS" {
		t.Errorf("status %q (error %v) after a key and news, want the news", text, isErr)
	}
}

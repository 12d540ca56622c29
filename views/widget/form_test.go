package widget

import (
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
)

// TestFormStaticCursorWaitsForNothing: a form blinks its cursor, so a focus
// change answers with the blink's timer; set static, the fields and those
// inserted later answer with nothing to wait for, and draw the same.
func TestFormStaticCursorWaitsForNothing(t *testing.T) {
	build := func() *Form {
		return NewForm(TextField("a", "A", "", nil), TextField("b", "B", "", nil))
	}
	tab := tea.KeyMsg{Type: tea.KeyTab}

	blinking := build()
	if blinking.Update(tab) == nil {
		t.Fatal("a form's focus change did not start the cursor's blink")
	}

	static := build()
	static.SetCursorMode(cursor.CursorStatic)
	static.Insert(2, TextField("c", "C", "", nil))
	for i := range 3 {
		if cmd := static.Update(tab); cmd != nil {
			t.Fatalf("focus change %d answered a command with the cursor static", i)
		}
	}
	if static.Focused() != 0 {
		t.Fatalf("three tabs over three fields focus %d, want 0", static.Focused())
	}
	if got := static.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}); got != nil {
		t.Error("typing answered a command with the cursor static")
	}

	blinking.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	blinking.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	static.Remove(2, 1)
	if b, s := blinking.View(), static.View(); b != s {
		t.Errorf("the static cursor draws differently:\nblinking:\n%s\nstatic:\n%s", b, s)
	}
}

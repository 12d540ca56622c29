package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// TestHelpCutsALongLineNotItsColumn: a description wider than the help
// loses its own end, and the other keys of its group still show (the
// help used to drop the whole group behind "…").
func TestHelpCutsALongLineNotItsColumn(t *testing.T) {
	t.Parallel()
	m := &Model{width: 40, help: help.New()}
	m.help.Width = m.width
	group := []key.Binding{
		key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "claim all claimable: unlock the key that pays first, enter on it")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "unlock")),
	}
	out := m.helpColumns([][]key.Binding{group})
	for _, want := range []string{"claim all claimable", "…", "unlock"} {
		if !strings.Contains(out, want) {
			t.Errorf("the help lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if w := len([]rune(line)); w > m.width {
			t.Errorf("a line of %d columns, wider than %d: %q", w, m.width, line)
		}
	}
	if group[0].Help().Desc != "claim all claimable: unlock the key that pays first, enter on it" {
		t.Error("fitting the help changed the screen's own binding")
	}
}

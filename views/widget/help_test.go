package widget

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// everyKey is each key a user can press that a widget might answer: the
// printable characters and the named keys.
func everyKey() []tea.KeyMsg {
	var keys []tea.KeyMsg
	for r := rune(' ' + 1); r < 127; r++ {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	for _, k := range []tea.KeyType{
		tea.KeyUp, tea.KeyDown, tea.KeyLeft, tea.KeyRight, tea.KeyShiftUp, tea.KeyShiftDown,
		tea.KeyPgUp, tea.KeyPgDown, tea.KeyHome, tea.KeyEnd, tea.KeyEnter, tea.KeyEsc,
		tea.KeyTab, tea.KeyShiftTab, tea.KeyBackspace, tea.KeyDelete, tea.KeySpace,
	} {
		keys = append(keys, tea.KeyMsg{Type: k})
	}
	for k := tea.KeyCtrlA; k <= tea.KeyCtrlZ; k++ {
		keys = append(keys, tea.KeyMsg{Type: k})
	}
	return keys
}

// helped is every key the bindings of help name.
func helped(groups [][]key.Binding) map[string]bool {
	in := map[string]bool{}
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() && b.Help().Key != "" {
				for _, k := range b.Keys() {
					in[k] = true
				}
			}
		}
	}
	return in
}

// checkHelpCovers presses each key on a fresh widget, in the state
// build gives it; a key whose press changes what state reports, or that
// answers a command, must be in the help the widget showed before it.
func checkHelpCovers(t *testing.T, build func() (state func() string, update func(tea.Msg) tea.Cmd, help [][]key.Binding)) {
	t.Helper()
	for _, k := range everyKey() {
		state, update, help := build()
		before := state()
		cmd := update(k)
		if (cmd != nil || state() != before) && !helped(help)[k.String()] {
			t.Errorf("%q is handled (state %q -> %q, command %v) but not in the help", k.String(), before, state(), cmd != nil)
		}
	}
}

// TestHelpNamesEveryKeyHandled: a widget's help is taken from the keymap
// its Update handles, so every key that does something is in it, in each
// state: a table browsed and filtered, a form on a text field and on a
// choice, a confirm dialog, a detail pane that scrolls.
func TestHelpNamesEveryKeyHandled(t *testing.T) {
	rows := makeStakes(60)
	// A table answers its own keys with commands (open, copy, sort); while
	// its filter is edited, what is typed is the point and answers a
	// debounce tick: there, a move or a change of mode is what counts.
	table := func(filtering bool) func() (func() string, func(tea.Msg) tea.Cmd, [][]key.Binding) {
		return func() (func() string, func(tea.Msg) tea.Cmd, [][]key.Binding) {
			tb := newStakeTable(rows, 100, 20, TableConfig[stake]{OnOpen: func(stake) tea.Cmd { return func() tea.Msg { return nil } }})
			tb.setCursor(30)
			update := tb.Update
			if filtering {
				tb.Update(keyMsg("/"))
				update = func(m tea.Msg) tea.Cmd { tb.Update(m); return nil }
			}
			state := func() string { return fmt.Sprint(tb.cursor, tb.sort, tb.editing, tb.query) }
			return state, update, tb.FullHelp()
		}
	}
	t.Run("table", func(t *testing.T) { checkHelpCovers(t, table(false)) })
	t.Run("table filtering", func(t *testing.T) { checkHelpCovers(t, table(true)) })
	form := func(on int) func() (func() string, func(tea.Msg) tea.Cmd, [][]key.Binding) {
		return func() (func() string, func(tea.Msg) tea.Cmd, [][]key.Binding) {
			f := NewForm(TextField("a", "A", "", nil), ChoiceField("b", "B", "x", "y", "z"), TextField("c", "C", "", nil))
			f.SetCursorMode(cursor.CursorStatic)
			submits := 0
			f.Submit = func() tea.Cmd { submits++; return nil }
			f.Focus(on)
			state := func() string { return fmt.Sprint(f.Focused(), f.fields[1].choice, submits) }
			// A text field's own commands (a paste) are typing, not keys.
			return state, func(m tea.Msg) tea.Cmd { f.Update(m); return nil }, f.FullHelp()
		}
	}
	for i, name := range []string{"form on a text field", "form on a choice", "form on the last field"} {
		t.Run(name, func(t *testing.T) { checkHelpCovers(t, form(i)) })
	}
	t.Run("form offers only what applies", func(t *testing.T) {
		f := NewForm(TextField("a", "A", "", nil), ChoiceField("b", "B", "x", "y"))
		if helped(f.FullHelp())["left"] {
			t.Error("on a text field the form offers ←/→ to change a choice")
		}
		f.Focus(1)
		if !helped(f.FullHelp())["left"] {
			t.Error("on a choice the form does not offer ←/→")
		}
	})
	t.Run("confirm", func(t *testing.T) {
		checkHelpCovers(t, func() (func() string, func(tea.Msg) tea.Cmd, [][]key.Binding) {
			c := NewConfirm("tag", "Send?")
			state := func() string { return fmt.Sprint(c.yes, c.done) }
			return state, c.Update, c.FullHelp()
		})
	})
	t.Run("detail", func(t *testing.T) {
		checkHelpCovers(t, func() (func() string, func(tea.Msg) tea.Cmd, [][]key.Binding) {
			d := NewDetail()
			fields := make([]Field, 40)
			for i := range fields {
				fields[i] = Field{Label: fmt.Sprint("F", i), Value: "v"}
			}
			d.SetFields(fields)
			d.SetSize(40, 10)
			d.scroll(5)
			state := func() string { return fmt.Sprint(d.offset) }
			return state, d.Update, d.FullHelp()
		})
	})
}

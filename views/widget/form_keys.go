package widget

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// ShortHelp implements help.KeyMap with the keys the form handles now:
// the arrows that change a choice on a choice, enter when it submits.
func (f *Form) ShortHelp() []key.Binding { return f.Bindings().ShortHelp() }

// Bindings are the form's keys on the focused field, which Update
// dispatches before it gives a key to the field: move between fields,
// change a choice (← back, → on), and enter, the next field or, on the
// last, submit.
func (f *Form) Bindings() Bindings {
	if len(f.fields) == 0 {
		return nil
	}
	fld := f.fields[f.focus]
	back, on := f.Keys.Change, f.Keys.Change
	back.SetKeys("left")
	on.SetKeys(slices.DeleteFunc(slices.Clone(on.Keys()), func(k string) bool { return k == "left" })...)
	back.SetEnabled(fld.Options != nil)
	on.SetEnabled(fld.Options != nil)
	back.SetHelp("", "") // named together, below
	on.SetHelp("", "")
	submit := f.Keys.Submit
	submit.SetEnabled(f.Submit != nil)
	change := func(step int) func() tea.Cmd {
		return func() tea.Cmd {
			fld.choice = (fld.choice + step) % len(fld.Options)
			// A change ends an error set on the choice (the service's), as
			// typing does on a text.
			fld.edited = true
			fld.check()
			return nil
		}
	}
	bs := Bindings{
		{Key: f.Keys.Next, Short: true, Run: func() tea.Cmd { return f.Focus((f.focus + 1) % len(f.fields)) }},
		{Key: f.Keys.Prev, Short: true, Run: func() tea.Cmd { return f.Focus((f.focus + len(f.fields) - 1) % len(f.fields)) }},
		{Key: back, Run: change(len(fld.Options) - 1)},
		{Key: on, Run: change(1)},
	}
	if fld.Options != nil {
		bs = append(bs, Binding{Key: f.Keys.Change, Label: true, Short: true})
	}
	return append(bs, Binding{Key: submit, Short: true, Run: func() tea.Cmd {
		if f.focus < len(f.fields)-1 {
			return f.Focus(f.focus + 1)
		}
		f.tried = true
		return f.Submit()
	}})
}

// FullHelp implements help.KeyMap.
func (f *Form) FullHelp() [][]key.Binding { return [][]key.Binding{f.ShortHelp()} }

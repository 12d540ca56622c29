package widget

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Update handles keys and the table's own messages (debounce ticks and
// background results). Messages meant for another table are ignored, so a
// screen may forward everything it does not handle to all its tables.
func (t *Table[R]) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if t.editing {
			return t.updateInput(msg)
		}
		cmd, _ := t.Bindings().Dispatch(msg)
		return cmd
	case filterTick:
		if msg.from == any(t) && msg.seq == t.filterSeq {
			return t.applyQuery(t.input.Value())
		}
	case jobDone[R]:
		if msg.table == t {
			return t.finish(msg)
		}
	}
	return nil
}

// Bindings are the table's keys as it stands, which its dispatch, its
// ShortHelp and its FullHelp read, and a screen lists with its own.
// While the filter is edited, a key none of them takes is typed into it
// (updateInput).
func (t *Table[R]) Bindings() Bindings {
	k := t.keys
	if t.editing {
		return Bindings{
			{Key: k.AcceptFilter, Short: true, Group: "filter", Run: func() tea.Cmd {
				t.stopEditing()
				return t.applyQuery(t.input.Value())
			}},
			{Key: k.CancelFilter, Short: true, Group: "filter", Run: t.clearFilter},
			{Key: k.FilterUp, Group: "matches", Run: func() tea.Cmd { t.move(-1); return nil }},
			{Key: k.FilterDown, Group: "matches", Run: func() tea.Cmd { t.move(1); return nil }},
		}
	}
	body := max(t.bodyHeight(), 1)
	move := func(n int) func() tea.Cmd { return func() tea.Cmd { t.move(n); return nil } }
	// The arrows are left to the full help: every table moves with them,
	// and a footer has room for what this one does. Open, sort and copy
	// are offered while a row is shown ("No match": none).
	rows := len(t.view) > 0
	open, clear, sort := k.Open, k.ClearFilter, k.Sort
	open.SetEnabled(t.onOpen != nil)
	clear.SetEnabled(t.query != "")
	sort.SetEnabled(t.sortable())
	return Bindings{
		{Key: k.Up, Group: "move", Run: move(-1)},
		{Key: k.Down, Group: "move", Run: move(1)},
		{Key: k.Top, Group: "move", Run: func() tea.Cmd { t.setCursor(0); return nil }},
		{Key: k.Bottom, Group: "move", Run: func() tea.Cmd { t.setCursor(len(t.view) - 1); return nil }},
		{Key: k.PageUp, Group: "page", Run: move(-body)},
		{Key: k.PageDown, Group: "page", Run: move(body)},
		{Key: k.HalfPageUp, Group: "page", Run: move(-max(body/2, 1))},
		{Key: k.HalfPageDown, Group: "page", Run: move(max(body/2, 1))},
		{Key: open, Short: rows, Group: "rows", Run: func() tea.Cmd {
			if r, ok := t.Selected(); ok {
				return t.onOpen(r)
			}
			return nil
		}},
		{Key: k.Filter, Short: true, Group: "filter", Run: t.startEditing},
		{Key: clear, Short: true, Group: "filter", Run: t.clearFilter},
		{Key: sort, Short: rows, Group: "rows", Run: t.cycleSort},
		{Key: k.Copy, Short: rows, Group: "rows", Run: func() tea.Cmd {
			if r, ok := t.Selected(); ok {
				return t.clipboard.Copy(t.copyText(r))
			}
			return nil
		}},
	}
}

// Keys are the table's key bindings, for a screen that lets only some
// of them through.
func (t *Table[R]) Keys() TableKeyMap { return t.keys }

// ShortHelp implements help.KeyMap with the keys that apply right now.
func (t *Table[R]) ShortHelp() []key.Binding { return t.Bindings().ShortHelp() }

// FullHelp implements help.KeyMap with the keys that apply right now.
func (t *Table[R]) FullHelp() [][]key.Binding { return t.Bindings().FullHelp() }

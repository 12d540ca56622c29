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
		return t.handleKey(msg)
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

func (t *Table[R]) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := &t.keys
	body := max(t.bodyHeight(), 1)
	switch {
	case key.Matches(msg, k.Down):
		t.move(1)
	case key.Matches(msg, k.Up):
		t.move(-1)
	case key.Matches(msg, k.PageDown):
		t.move(body)
	case key.Matches(msg, k.PageUp):
		t.move(-body)
	case key.Matches(msg, k.HalfPageDown):
		t.move(max(body/2, 1))
	case key.Matches(msg, k.HalfPageUp):
		t.move(-max(body/2, 1))
	case key.Matches(msg, k.Top):
		t.setCursor(0)
	case key.Matches(msg, k.Bottom):
		t.setCursor(len(t.view) - 1)
	case key.Matches(msg, k.Open):
		if r, ok := t.Selected(); ok && t.onOpen != nil {
			return t.onOpen(r)
		}
	case key.Matches(msg, k.Sort):
		return t.cycleSort()
	case key.Matches(msg, k.Filter):
		return t.startEditing()
	case key.Matches(msg, k.ClearFilter):
		if t.query != "" {
			return t.clearFilter()
		}
	case key.Matches(msg, k.Copy):
		if r, ok := t.Selected(); ok {
			return t.clipboard.Copy(t.copyText(r))
		}
	}
	return nil
}

// Keys are the table's key bindings, for a screen that lets only some
// of them through.
func (t *Table[R]) Keys() TableKeyMap { return t.keys }

// ShortHelp implements help.KeyMap with the keys that apply right now.
// The arrows are left to the full help: every table moves with them, and
// a footer has room for what this one does.
func (t *Table[R]) ShortHelp() []key.Binding {
	k := t.keys
	if t.editing {
		return []key.Binding{k.AcceptFilter, k.CancelFilter}
	}
	if len(t.view) == 0 {
		// No row shown ("No match"): nothing to open, sort or copy.
		if t.query != "" {
			return []key.Binding{k.Filter, k.ClearFilter}
		}
		return []key.Binding{k.Filter}
	}
	var b []key.Binding
	if t.onOpen != nil {
		b = append(b, k.Open)
	}
	b = append(b, k.Filter)
	if t.query != "" {
		b = append(b, k.ClearFilter)
	}
	if t.sortable() {
		b = append(b, k.Sort)
	}
	return append(b, k.Copy)
}

// FullHelp implements help.KeyMap with the keys that apply right now.
func (t *Table[R]) FullHelp() [][]key.Binding {
	k := t.keys
	if t.editing {
		return [][]key.Binding{{k.AcceptFilter, k.CancelFilter}, {k.FilterUp, k.FilterDown}}
	}
	actions := []key.Binding{k.Copy}
	if t.onOpen != nil {
		actions = append([]key.Binding{k.Open}, actions...)
	}
	if t.sortable() {
		actions = append(actions, k.Sort)
	}
	filter := []key.Binding{k.Filter}
	if t.query != "" {
		filter = append(filter, k.ClearFilter)
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom},
		{k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown},
		actions,
		filter,
	}
}

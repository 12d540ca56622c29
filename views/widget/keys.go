package widget

import "github.com/charmbracelet/bubbles/key"

// TableKeyMap holds a table's key bindings. It implements help.KeyMap; a
// Table's own ShortHelp and FullHelp show only the keys that apply at the
// moment (while the filter is edited, only accept and cancel).
type TableKeyMap struct {
	Up           key.Binding
	Down         key.Binding
	PageUp       key.Binding
	PageDown     key.Binding
	HalfPageUp   key.Binding
	HalfPageDown key.Binding
	Top          key.Binding
	Bottom       key.Binding
	Open         key.Binding
	Sort         key.Binding
	Filter       key.Binding
	ClearFilter  key.Binding
	Copy         key.Binding
	// AcceptFilter, CancelFilter, FilterUp and FilterDown apply while the
	// filter is edited; FilterUp and FilterDown move through the matches
	// with the arrows alone, as k and j are typed into the filter.
	AcceptFilter key.Binding
	CancelFilter key.Binding
	FilterUp     key.Binding
	FilterDown   key.Binding
}

// DefaultTableKeyMap returns the dashboard's table keys.
func DefaultTableKeyMap() TableKeyMap {
	return TableKeyMap{
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:       key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:     key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		HalfPageUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "½ page up")),
		HalfPageDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "½ page down")),
		Top:          key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "first")),
		Bottom:       key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "last")),
		Open:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Sort:         key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Copy:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		AcceptFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply filter")),
		CancelFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel filter")),
		FilterUp:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous match")),
		FilterDown:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next match")),
	}
}

// ShortHelp implements help.KeyMap.
func (k TableKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Open, k.Filter, k.Sort, k.Copy}
}

// FullHelp implements help.KeyMap.
func (k TableKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom},
		{k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown},
		{k.Open, k.Copy, k.Sort},
		{k.Filter, k.ClearFilter, k.AcceptFilter, k.CancelFilter, k.FilterUp, k.FilterDown},
	}
}

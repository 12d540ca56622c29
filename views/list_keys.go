package views

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
)

// RowAction is a key that opens a screen about the focused row: a form
// that acts on it.
type RowAction[R any] struct {
	Key  key.Binding
	Open func(R) Screen
	// only, when set, says which rows the action is for: on any other row
	// its key goes on to the table (enter then opens the row's details).
	Only func(R) bool
	// refuse, when set, says why the action cannot be taken on a row it
	// is for ("" when it can): the status line tells, and nothing opens.
	Refuse func(R) string
	// Acts: the action signs, sends or writes; a read-only session
	// neither offers it nor opens it, and says why.
	Acts bool
}

// refusal is why a cannot be taken on row in ctx, "" when it can.
func (a RowAction[R]) refusal(ctx *Context, row R) string {
	if a.Acts {
		if err := ctx.Session.Writable(); err != nil {
			return err.Error()
		}
	}
	if a.Refuse != nil {
		return a.Refuse(row)
	}
	return ""
}

func (l *List[R]) ShortHelp() []key.Binding {
	if l.Table.EditingFilter() {
		// Every other key is typed into the filter: none is offered.
		return l.Table.ShortHelp()
	}
	// The screen's own actions first: the footer cuts from the right. One
	// that is not for the focused row is left out (the full help lists it).
	var keys []key.Binding
	row, selected := l.Table.Selected()
	for _, a := range l.Actions {
		if !selected || a.Only != nil && !a.Only(row) || a.refusal(l.Ctx, row) != "" {
			continue
		}
		keys = append(keys, a.Key)
	}
	// A table key an action takes on this row (enter, on an UNKNOWN
	// write) is the action's: offered once.
	for _, b := range l.Table.ShortHelp() {
		if !slices.ContainsFunc(keys, func(a key.Binding) bool { return sharesKey(a, b) }) {
			keys = append(keys, b)
		}
	}
	if l.Fetch != nil {
		keys = append(keys, KeyRefresh)
	}
	return keys
}

// sharesKey reports whether a and b answer a key in common.
func sharesKey(a, b key.Binding) bool {
	return slices.ContainsFunc(a.Keys(), func(k string) bool { return slices.Contains(b.Keys(), k) })
}

func (l *List[R]) FullHelp() [][]key.Binding {
	if l.Table.EditingFilter() {
		return l.Table.FullHelp()
	}
	var full [][]key.Binding
	var acts []key.Binding
	for _, a := range l.Actions {
		acts = append(acts, a.Key)
	}
	if acts != nil {
		// First, so that a narrow terminal does not cut them off.
		full = append(full, acts)
	}
	full = append(full, l.Table.FullHelp()...)
	if l.Ctx.Compact {
		full = append(full, []key.Binding{keyDetailKey}) // no pane to scroll
	} else {
		full = append(full, append(l.detail.ShortHelp(), keyDetailKey))
	}
	if l.Fetch != nil {
		full = append(full, []key.Binding{KeyRefresh})
	}
	return full
}

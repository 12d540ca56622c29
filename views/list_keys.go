package views

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
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

// keys are the list's keys on the focused row: the screen's own, the
// row's actions, the table's keys, the detail pane's, d and r. Its
// dispatch, the footer and the help read them, so that a key is offered
// where it works. An action refused on the focused row (Refuse, a
// read-only session) or not for it (Only) says why, in the help and when
// pressed; but where the table answers its key on this row (enter opens
// the row's details), it leaves the key to the table. Without a row, the
// actions are only listed.
func (l *List[R]) keys() widget.Bindings {
	if l.Table.EditingFilter() {
		// Every other key is typed into the filter: none is offered.
		return l.Table.Bindings()
	}
	var bs widget.Bindings
	table := l.Table.Bindings()
	row, selected := l.Table.Selected()
	if l.Own != nil {
		bs = append(bs, l.Own(row, selected)...)
	}
	for _, a := range l.Actions {
		refusal := func() string { return a.refusal(l.Ctx, row) }
		switch {
		case !selected:
			refusal = nil // no row yet: listed in the help, and does nothing
		case a.Only == nil || a.Only(row):
		case takes(table, a.Key):
			continue // the table's key on this row
		default:
			refusal = func() string { return "not for this row" }
		}
		// The screen's own actions first: the footer cuts from the right.
		bs = append(bs, widget.Binding{Key: a.Key, Short: selected, Group: "actions", Disabled: refusal,
			Run: func() tea.Cmd {
				if !selected {
					return nil
				}
				return Navigate(a.Open(row))
			}})
	}
	bs = append(bs, table...)
	details := widget.Binding{Key: keyDetailKey, Group: "detail", Run: func() tea.Cmd {
		if !selected {
			return nil
		}
		return l.describe(row)
	}}
	if l.Ctx.Compact {
		bs = append(bs, details) // no pane to scroll
	} else {
		bs = append(append(bs, l.detail.Bindings()...), details)
	}
	if l.Fetch != nil {
		bs = append(bs, widget.Binding{Key: KeyRefresh, Short: true, Group: "refresh", Run: l.reloadClearing})
	}
	return bs
}

// takes says whether a binding of bs answers a key of k.
func takes(bs widget.Bindings, k key.Binding) bool {
	for _, b := range bs {
		if b.Key.Enabled() && slices.ContainsFunc(k.Keys(), func(s string) bool { return slices.Contains(b.Key.Keys(), s) }) {
			return true
		}
	}
	return false
}

func (l *List[R]) Keys() widget.Bindings { return l.keys() }

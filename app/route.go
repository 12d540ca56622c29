package app

// Routing: an answer goes to the screen whose command asked for it, and
// only events go to every screen.

import (
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// deliver gives an addressed message to its page: a status or an error to
// the status line, as that page's; anything else to the page itself while
// it is open. The answer to a page since closed or replaced (by a reload
// of its tab, a profile switch) reaches no one: no screen ever acts on
// another's answer, whether it checks or not.
func (m *Model) deliver(env views.Addressed) tea.Cmd {
	switch env.Msg.(type) {
	case views.ErrorMsg, widget.StatusMsg:
		return m.said(env.To, env.Msg)
	}
	if !m.isOpen(env.To) {
		return nil
	}
	return tag(env.To, env.To.Update(env.Msg))
}

// broadcast gives an event (views.Event) to every screen of every tab;
// nothing else goes to them all.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(views.Event); !ok {
		return nil
	}
	var cmds []tea.Cmd
	for _, stack := range m.stacks {
		for _, s := range stack {
			cmds = append(cmds, tag(s, s.Update(msg)))
		}
	}
	return tea.Batch(cmds...)
}

// isOpen reports whether page is on a tab's stack.
func (m *Model) isOpen(page views.Screen) bool {
	for _, stack := range m.stacks {
		for _, s := range stack {
			if s == page {
				return true
			}
		}
	}
	return false
}

package app

import tea "github.com/charmbracelet/bubbletea"

// A late tab (tab.late) loads after the screen on show has its first
// data, or when it is shown, whichever comes first. The Transactions tab
// reads the journal, which grows with the years and, after an upgrade or
// damage, rebuilds its index (seconds at a million entries, on the cores
// the first screen's load needs): start-up is then the same for any
// journal.

// initTabs starts every tab's first load but the late ones'.
func (m *Model) initTabs() []tea.Cmd {
	m.lateWaiting = true
	var cmds []tea.Cmd
	for i, stack := range m.stacks {
		if !tabs[i].late {
			cmds = append(cmds, tag(stack[0], stack[0].Init()))
		}
	}
	return cmds
}

// startLate starts the late tabs' first loads once the screen on show is
// no longer waiting, or a late tab is shown.
func (m *Model) startLate() tea.Cmd {
	if !m.lateWaiting || !tabs[m.active].late && m.top().Mode().Busy {
		return nil
	}
	m.lateWaiting = false
	var cmds []tea.Cmd
	for i, t := range tabs {
		if t.late {
			cmds = append(cmds, tag(m.stacks[i][0], m.stacks[i][0].Init()))
		}
	}
	return tea.Batch(cmds...)
}

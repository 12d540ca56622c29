package app

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"
)

// lateTabs load after the screen on show has its first data, or when
// they are shown, whichever comes first. The Transactions tab reads the
// journal, which grows with the years and, after an upgrade or damage,
// rebuilds its index (seconds at a million entries, on the cores the
// first screen's load needs): start-up is then the same for any journal.
var lateTabs = []int{tabTransactions}

// initTabs starts every tab's first load but the late ones'.
func (m *Model) initTabs() []tea.Cmd {
	m.lateWaiting = true
	var cmds []tea.Cmd
	for tab, stack := range m.stacks {
		if !slices.Contains(lateTabs, tab) {
			cmds = append(cmds, tag(stack[0], stack[0].Init()))
		}
	}
	return cmds
}

// startLate starts the late tabs' first loads once the screen on show is
// no longer waiting, or a late tab is shown.
func (m *Model) startLate() tea.Cmd {
	if !m.lateWaiting || !slices.Contains(lateTabs, m.active) && m.top().Mode().Busy {
		return nil
	}
	m.lateWaiting = false
	var cmds []tea.Cmd
	for _, tab := range lateTabs {
		cmds = append(cmds, tag(m.stacks[tab][0], m.stacks[tab][0].Init()))
	}
	return tea.Batch(cmds...)
}

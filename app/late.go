package app

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// A late tab (tab.late) loads after the screen on show has its first
// data, or when it is shown, whichever comes first. The Transactions tab
// reads the journal, which grows with the years and, after an upgrade or
// damage, rebuilds its index (seconds at a million entries, on the cores
// the first screen's load needs): start-up is then the same for any
// journal.

// lateState is where the late tabs' first loads are.
type lateState int

const (
	lateStarted   lateState = iota // or no late tab waits (a model not started)
	lateWaiting                    // for the first data, or the tab shown
	lateScheduled                  // the first data is on show: lateDelay after
)

// lateDelay lets the frame that shows the first data reach the terminal
// before the late loads take the cores.
const lateDelay = 50 * time.Millisecond

// lateStart starts the scheduled late loads.
type lateStart struct{}

// initTabs starts every tab's first load but the late ones'.
func (m *Model) initTabs() []tea.Cmd {
	m.late = lateWaiting
	var cmds []tea.Cmd
	for i, stack := range m.stacks {
		if !tabs[i].late {
			cmds = append(cmds, tag(stack[0], stack[0].Init()))
		}
	}
	return cmds
}

// startLate starts the late tabs' first loads when a late tab is shown,
// and schedules them once the screen on show is no longer waiting.
func (m *Model) startLate() tea.Cmd {
	switch {
	case m.late == lateStarted:
		return nil
	case tabs[m.active].late:
		return m.initLate()
	case m.late == lateWaiting && !m.top().Mode().Busy:
		m.late = lateScheduled
		return tea.Tick(lateDelay, func(time.Time) tea.Msg { return lateStart{} })
	}
	return nil
}

// initLate starts the late tabs' first loads, once.
func (m *Model) initLate() tea.Cmd {
	if m.late == lateStarted {
		return nil
	}
	m.late = lateStarted
	var cmds []tea.Cmd
	for i, t := range tabs {
		if t.late {
			cmds = append(cmds, tag(m.stacks[i][0], m.stacks[i][0].Init()))
		}
	}
	return tea.Batch(cmds...)
}

package views

import (
	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
)

// reloadClearing is Reload for r, on the page on show: the last load's
// warning leaves the status line as this load starts. In sequence, so
// that this load's own warning, however quick, comes after the clear.
func (l *List[R]) reloadClearing() tea.Cmd {
	warned := l.warned
	l.warned = false
	cmd := l.Reload()
	if !warned {
		return cmd
	}
	return tea.Sequence(func() tea.Msg { return widget.StatusMsg{} }, cmd)
}

// refresh reads the rows again quietly, unless a read is on its way; a
// failed load's page stays on show until the service answers.
func (l *List[R]) refresh() tea.Cmd {
	if l.Fetch == nil || l.busy || l.refreshing {
		return nil
	}
	l.Seq = NextSeq()
	l.refreshing = true
	return Load(l.Ctx, l.Seq, l.Fetch)
}

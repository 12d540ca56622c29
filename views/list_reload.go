package views

import (
	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
)

// reloadClearing is Reload for r, on the page on show: the last load's
// warning leaves the status line as this load starts.
func (l *List[R]) reloadClearing() tea.Cmd {
	return l.clearingWarning(l.Reload())
}

// refresh reads the rows again quietly, unless a read is on its way; a
// failed load's page stays on show until the service answers. The last
// load's warning leaves as it starts, as on r: the dashboard takes the
// clear as this page's, so it wipes no other page's message.
func (l *List[R]) refresh() tea.Cmd {
	if l.Fetch == nil || l.busy || l.refreshing {
		return nil
	}
	l.Seq = l.Reqs.Next()
	l.refreshing = true
	return l.clearingWarning(Load(l.Ctx, l.Seq, l.Fetch))
}

// clearingWarning runs load after clearing the warning the last load put
// on the status line, if it did. In sequence, so that this load's own
// warning, however quick, comes after the clear.
func (l *List[R]) clearingWarning(load tea.Cmd) tea.Cmd {
	if !l.warned || load == nil {
		return load
	}
	l.warned = false
	return tea.Sequence(func() tea.Msg { return widget.StatusMsg{} }, load)
}

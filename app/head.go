package app

// The chain's rhythm follows its blocks: once its period has passed since
// the last refresh, the dashboard looks at the node's head (one
// eth_blockNumber) and asks the screen on show to read the chain again
// only when a block came since; with none, it looks again every
// headEvery until one comes. So the chain's numbers are read again on
// each new block, never more often than the period, and not at all while
// the chain stands still. A profile without a node (no rpc_url) has no
// head to follow: its chain rhythm is the period alone.

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
)

// headEvery is how often the head is looked at again once the period has
// passed with no new block: a block then shows within that, for one
// cheap call to the node.
const headEvery = 3 * time.Second

// headSeen is the node's head, looked at for the rhythm gen; err when the
// node did not answer.
type headSeen struct {
	gen   int
	block uint64
	err   error
}

// lookAtHead asks the profile's node its head, off the UI goroutine.
func (m *Model) lookAtHead(gen int) tea.Cmd {
	node := m.ctx.Session.Chain
	ctx, cancel := m.ctx.Bound(views.HeadTimeout)
	return func() tea.Msg {
		defer cancel()
		block, err := node.BlockNumber(ctx)
		return headSeen{gen: gen, block: block, err: err}
	}
}

// onHead refreshes the chain's numbers on show when a block came since
// the last refresh, or the node did not answer (the screen's own read
// then says so, marking its figures stale), and waits the period; with
// no new block it looks again after headEvery.
func (m *Model) onHead(h headSeen) tea.Cmd {
	if h.gen != m.refreshGen || m.refreshPaused {
		return nil
	}
	chain, _ := m.ctx.Session.Profile.Refresh.Every()
	// Another head than the last, lower too (a node restarted, a reorg),
	// is news.
	if h.err == nil && m.headKnown && h.block == m.head {
		return m.waitRefresh(min(headEvery, chain), true)
	}
	var told tea.Cmd
	if h.err == nil {
		m.head, m.headKnown = h.block, true
		// Every screen counts confirmations from it, not only the one on
		// show.
		_, told = m.update(m.ctx.SetHead(h.block))
	}
	top := m.top()
	return tea.Batch(told, tag(top, top.Update(views.RefreshMsg{Chain: true})), m.waitRefresh(chain, true))
}

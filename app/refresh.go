package app

// The dashboard's refresh: two rhythms from the profile (the chain's
// numbers, the service's lists), each a wait on the dashboard's one clock
// that, when it fires, asks the screen on show to read again and waits
// anew; the chain's asks only when a block came (head.go). Only the screen on show refreshes: a large pool's stakes are read
// again only while its screen is open. p pauses both, as in k9s.

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
)

// refreshTick says a rhythm's period has passed; gen tells a tick of the
// current rhythms from one armed before a pause or a profile switch.
type refreshTick struct {
	gen   int
	chain bool
}

// armRefresh starts the profile's rhythms anew: the ticks of earlier ones
// are dropped from now on. None while paused, or with refresh = "off".
func (m *Model) armRefresh() tea.Cmd {
	m.refreshGen++
	m.headKnown = false // another profile's node, or blocks missed paused
	m.ctx.SetHead(0)
	if m.refreshPaused {
		return nil
	}
	chain, lists := m.ctx.Session.Profile.Refresh.Every()
	return tea.Batch(m.waitRefresh(chain, true), m.waitRefresh(lists, false))
}

// waitRefresh waits every on the dashboard's clock, or until the screens'
// work ends (quit, profile switch); nil when every is 0 (off).
func (m *Model) waitRefresh(every time.Duration, chain bool) tea.Cmd {
	if every <= 0 {
		return nil
	}
	gen, root, fired := m.refreshGen, m.ctx.Root(), m.ctx.After(every)
	return func() tea.Msg {
		select {
		case <-fired:
			return refreshTick{gen: gen, chain: chain}
		case <-root.Done():
			return nil
		}
	}
}

// refresh asks the screen on show to read again, and waits for the next
// period; the chain's rhythm first looks for a new block (head.go). A
// paused or superseded rhythm's tick is dropped.
func (m *Model) refresh(t refreshTick) tea.Cmd {
	if t.gen != m.refreshGen || m.refreshPaused {
		return nil
	}
	if t.chain && m.ctx.Session.Chain != nil {
		return m.lookAtHead(t.gen)
	}
	chain, lists := m.ctx.Session.Profile.Refresh.Every()
	every := lists
	if t.chain {
		every = chain
	}
	top := m.top()
	return tea.Batch(tag(top, top.Update(views.RefreshMsg{Chain: t.chain})), m.waitRefresh(every, t.chain))
}

// catchUp reads the screen just shown again when its data is older than
// its rhythm: a tab in the background is not refreshed, and shown again
// it should not wait a whole period more.
func (m *Model) catchUp() tea.Cmd {
	r, ok := m.top().(views.Refresher)
	if !ok || m.refreshPaused {
		return nil
	}
	at := r.Freshness().At
	if at.IsZero() {
		return nil
	}
	age := m.ctx.Now().Sub(at)
	chain, lists := m.ctx.Session.Profile.Refresh.Every()
	top := m.top()
	var cmds []tea.Cmd
	if lists > 0 && age >= lists {
		cmds = append(cmds, tag(top, top.Update(views.RefreshMsg{})))
	}
	if chain > 0 && age >= chain {
		cmds = append(cmds, tag(top, top.Update(views.RefreshMsg{Chain: true})))
	}
	return tea.Batch(cmds...)
}

// togglePause pauses the refresh, or resumes it; resuming reads the
// screen on show again at once.
func (m *Model) togglePause() tea.Cmd {
	if chain, lists := m.ctx.Session.Profile.Refresh.Every(); chain == 0 && lists == 0 {
		return m.inform(`refresh is off for this profile (refresh = "off")`)
	}
	m.refreshPaused = !m.refreshPaused
	if m.refreshPaused {
		m.refreshGen++
		return m.inform("refresh paused: p resumes")
	}
	top := m.top()
	return tea.Batch(m.armRefresh(), tag(top, top.Update(views.RefreshMsg{})), tag(top, top.Update(views.RefreshMsg{Chain: true})), m.inform("refresh resumed"))
}

// freshness is the header's word on the data on show: how old it is,
// stale after a failed refresh, paused.
func (m *Model) freshness() forms {
	r, ok := m.top().(views.Refresher)
	if !ok {
		return nil
	}
	f := r.Freshness()
	if f.At.IsZero() {
		return nil
	}
	age := ago(m.ctx.Now().Sub(f.At))
	var long, short string
	switch {
	case f.Stale != nil:
		long, short = "✗ stale: updated "+age, "✗ "+age
	default:
		long, short = "updated "+age, age
	}
	if m.refreshPaused {
		long, short = long+" · paused", short+" ⏸"
	}
	if f.Stale == nil && !m.refreshPaused {
		// Fresh rows' age is the least a short header must say.
		return forms{long, short, ""}
	}
	return forms{long, short}
}

// ago says a data's age in its largest whole unit, to the second under a
// minute: the header is redrawn every second while it shows one.
func ago(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	}
	return fmt.Sprintf("%dh ago", int(d/time.Hour))
}

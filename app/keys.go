package app

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/holder"
	"allot/views/widget"
)

// keyMap holds the dashboard's global keys. Screens add their own.
type keyMap struct {
	Help, Command, Back, Quit, NextTab, PrevTab, Token, Details, Unlock, Lock, Pause key.Binding
	Tabs                                                                             []key.Binding
	// AnyHelp and AnyQuit work even where a screen takes every key (a
	// form, where ? and q are typed).
	AnyHelp, AnyQuit key.Binding
}

func defaultKeys() keyMap {
	k := keyMap{
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Command: key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		NextTab: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next screen")),
		PrevTab: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous screen")),
		Token:   key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "next token")),
		Details: key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "error details")),
		Unlock:  key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "unlock an account")),
		Lock:    key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "lock the account, sign out")),
		Pause:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause or resume the refresh")),
		AnyHelp: key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "help")),
		AnyQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
	for i := 1; i <= len(tabs); i++ {
		n := string(rune('0' + i))
		k.Tabs = append(k.Tabs, key.NewBinding(key.WithKeys(n), key.WithHelp(n, tabs[i-1].name)))
	}
	return k
}

// globalKeys are the keys the dashboard answers over every screen, for a
// screen in mode: its dispatch, the footer and the help read them. While
// the screen takes every key (a form, where ? and q are typed), only f1
// and ctrl+c are on; while it owns esc (a write on its way, a question, a
// filter), esc is the screen's, and the footer leaves out "esc back":
// what esc does there is in the screen's own keys if anything.
func (m *Model) globalKeys(md views.Mode) widget.Bindings {
	k := m.keys
	idle := !md.TakesKeys
	on := func(b key.Binding) key.Binding { b.SetEnabled(idle); return b }
	const mainGroup, anyGroup = "keys", "anywhere"
	bs := widget.Bindings{
		{Key: on(k.NextTab), Run: func() tea.Cmd { return m.switchTab((m.active + 1) % len(tabs)) }},
		{Key: on(k.PrevTab), Run: func() tea.Cmd { return m.switchTab((m.active + len(tabs) - 1) % len(tabs)) }},
	}
	for i, t := range k.Tabs {
		bs = append(bs, widget.Binding{Key: on(t), Run: func() tea.Cmd { return m.switchTab(i) }})
	}
	return append(bs, widget.Bindings{
		{Key: on(k.Help), Short: true, Group: mainGroup, Run: func() tea.Cmd { m.openPage(modeHelp); return nil }},
		{Key: on(k.Command), Short: true, Group: mainGroup, Run: m.openCommandLine},
		{Key: on(k.Back), Short: !md.OwnsEsc, Group: mainGroup, Run: func() tea.Cmd { return m.back(tea.KeyMsg{Type: tea.KeyEsc}) }},
		{Key: on(k.Token), Group: mainGroup, Run: m.nextToken},
		{Key: on(k.Details), Group: mainGroup, Run: m.openDetails},
		{Key: on(k.Unlock), Group: mainGroup, Run: func() tea.Cmd { return m.open(holder.NewUnlock(m.ctx)) }},
		{Key: on(k.Lock), Group: mainGroup, Run: m.lock},
		{Key: on(k.Pause), Group: mainGroup, Run: m.togglePause},
		{Key: on(k.Quit), Short: true, Group: mainGroup, Run: m.quit},
		{Key: k.AnyHelp, Short: !idle, Group: anyGroup, Long: "help, also in forms", Run: func() tea.Cmd { m.openPage(modeHelp); return nil }},
		{Key: k.AnyQuit, Short: !idle, Group: anyGroup, Long: "quit at once", Run: m.exit},
	}...)
}

// withHelp is b described otherwise: the full help has room to say more
// than the footer.
func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

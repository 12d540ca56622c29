package app

import (
	"github.com/charmbracelet/bubbles/key"

	"allot/views"
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

// short are the global keys the footer shows for a screen in mode: while
// it takes every key, only those that still work; while it owns esc (a
// write on its way, a question, a filter), not "esc back": esc is the
// screen's, and what it does there is in the screen's own keys if
// anything.
func (k keyMap) short(mode views.Mode) []key.Binding {
	if mode.TakesKeys {
		return []key.Binding{k.AnyHelp, k.AnyQuit}
	}
	if mode.OwnsEsc {
		return []key.Binding{k.Help, k.Command, k.Quit}
	}
	return []key.Binding{k.Help, k.Command, k.Back, k.Quit}
}

func (k keyMap) full() [][]key.Binding {
	return [][]key.Binding{
		append([]key.Binding{k.NextTab, k.PrevTab}, k.Tabs...),
		{k.Help, k.Command, k.Back, k.Token, k.Details, k.Unlock, k.Lock, k.Pause, k.Quit},
		{withHelp(k.AnyHelp, "help, also in forms"), withHelp(k.AnyQuit, "quit at once")},
	}
}

// withHelp is b described otherwise: the full help has room to say more
// than the footer.
func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

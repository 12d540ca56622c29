package app

import "github.com/charmbracelet/bubbles/key"

// keyMap holds the dashboard's global keys. Screens add their own.
type keyMap struct {
	Help, Command, Back, Quit, NextTab, PrevTab, Token, Details, Unlock key.Binding
	Tabs                                                                []key.Binding
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
	}
	for i := 1; i <= len(tabNames); i++ {
		n := string(rune('0' + i))
		k.Tabs = append(k.Tabs, key.NewBinding(key.WithKeys(n), key.WithHelp(n, tabNames[i-1])))
	}
	return k
}

func (k keyMap) short() []key.Binding {
	return []key.Binding{k.Help, k.Command, k.Back, k.Quit}
}

func (k keyMap) full() [][]key.Binding {
	return [][]key.Binding{
		append([]key.Binding{k.NextTab, k.PrevTab}, k.Tabs...),
		{k.Help, k.Command, k.Back, k.Token, k.Details, k.Unlock, k.Quit},
	}
}

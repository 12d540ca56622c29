package views

import "github.com/charmbracelet/bubbles/key"

var (
	// KeyRefresh reloads a list.
	KeyRefresh   = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh"))
	keyDetailKey = key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "details"))
)

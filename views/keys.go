package views

import "github.com/charmbracelet/bubbles/key"

var (
	keyOpen      = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))
	keyRefresh   = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh"))
	keyHistogram = key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "histogram"))
	keyCurl      = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy as curl"))
	keyNewLookup = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new lookup"))
	keyDetailKey = key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "details"))
)

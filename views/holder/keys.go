package holder

import "github.com/charmbracelet/bubbles/key"

var (
	keyNewLookup = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new lookup"))
	keyEditID    = key.NewBinding(key.WithKeys("/", "i"), key.WithHelp("/ i", "type an id"))
	keyClaim     = key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "claim"))
)

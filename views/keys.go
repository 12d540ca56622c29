package views

import "github.com/charmbracelet/bubbles/key"

var (
	keyOpen      = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))
	keyRefresh   = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh"))
	keyHistogram = key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "histogram"))
	keyCurl      = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy as curl"))
	keyNewLookup = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new lookup"))
	keyEditID    = key.NewBinding(key.WithKeys("/", "i"), key.WithHelp("/ i", "type an id"))
	keyDetailKey = key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "details"))
	keyClaim     = key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "claim"))
	keyStake     = key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "stake"))
	keyInit      = key.NewBinding(key.WithKeys("I"), key.WithHelp("I", "initialize"))
	keyStart     = key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "start distribution"))
	keyFund      = key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "fund distribution"))
)

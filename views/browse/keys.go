package browse

import "github.com/charmbracelet/bubbles/key"

var (
	keyHistogram = key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "histogram"))
	keyCurl      = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy as curl"))
	keyStake     = key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "stake"))
	keyInit      = key.NewBinding(key.WithKeys("I"), key.WithHelp("I", "initialize"))
	keyStart     = key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "start distribution"))
	keyFund      = key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "fund distribution"))
)

package holder

import "github.com/charmbracelet/bubbles/key"

var (
	keyNewLookup   = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new lookup"))
	keyEditID      = key.NewBinding(key.WithKeys("/", "i"), key.WithHelp("/ i", "type an id"))
	keyClaim       = key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "claim"))
	keySafeClaimOf = key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "propose its claim as a Safe"))
	// T is the dashboard's next token: t transfers.
	keyTransfer = key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "transfer to a new address"))

	// The allocation's ids to pick from, and its id field while edited.
	keyPickPrev = key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous id"))
	keyPickNext = key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next id"))
	keyLookUp   = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "look up"))
	keyFillPrev = key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous id"))
	keyFillNext = key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next id"))
	keyStopEdit = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop editing"))
)

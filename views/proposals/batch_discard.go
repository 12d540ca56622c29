package proposals

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// A batch's acts are the owner's typing: esc on the list, which would
// close the page and drop them, asks first once there is one.

var keyDiscard = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "discard the batch"))

// discardBinding is esc on the list of acts: asked before the acts are
// dropped, the dashboard's back when there are none.
func (p *propose) discardBinding() widget.Binding {
	return widget.Binding{Key: keyDiscard, Short: true, Long: "discard the batch's acts and close the page (asked first)", Run: func() tea.Cmd {
		if len(p.batch.acts) == 0 {
			return views.Back
		}
		p.discarding = true
		question := "Discard the act of this batch?"
		if n := len(p.batch.acts); n > 1 {
			question = fmt.Sprintf("Discard the %d acts of this batch?", n)
		}
		p.ask = p.Ctx.Confirm("safe batch", question, "nothing was signed; the acts are not kept anywhere")
		p.ask.SetWidth(min(p.Width, 80))
		return nil
	}}
}

// discarded is the owner's answer: yes closes the page, no keeps the acts.
func (p *propose) discarded(msg widget.ConfirmMsg) tea.Cmd {
	p.ask, p.discarding = nil, false
	if msg.Yes {
		return views.Back
	}
	return nil
}

package app

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"

	"allot/views/widget"
)

// applyTheme sets the dashboard's colours before the program starts:
// "light" and "dark" say the terminal's background, for terminals that do
// not answer the question about it (or answer it wrong, through some
// multiplexers); "auto" (or "") leaves lipgloss to ask. Without colour
// (NO_COLOR, a terminal without any) the meaning stays in words and
// symbols: ✓ ✗, the ▶ of the focused row, the brackets around the tab on
// show.
func applyTheme(theme string) {
	switch theme {
	case "light":
		lipgloss.SetHasDarkBackground(false)
	case "dark":
		lipgloss.SetHasDarkBackground(true)
	}
}

// newHelp is the footer's and help's model, in the dashboard's looks.
func newHelp() help.Model {
	h := help.New()
	h.Styles = widget.HelpStyles()
	return h
}

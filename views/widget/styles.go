package widget

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

// Styles are the looks the widgets share. Colors are adaptive so that light
// and dark terminals both read well; nothing depends on color alone (the
// focused row also carries a marker), so NO_COLOR loses no information.
type Styles struct {
	// Header draws a table's column titles.
	Header lipgloss.Style
	// Selected draws the focused row of a table and the focused button.
	Selected lipgloss.Style
	// Muted draws secondary text: footers, empty states, labels, axes.
	Muted lipgloss.Style
	// Title draws a dialog's question.
	Title lipgloss.Style
	// Border draws pane separators and the dialog frame.
	Border lipgloss.Style
}

// subtle is secondary text that still reads: 5.3:1 against white, 6.4:1
// against black (WCAG asks 4.5:1).
var subtle = lipgloss.AdaptiveColor{Light: "#6B6B6B", Dark: "#8A8A8A"}

// keyColor draws the keys of the footer and of help, darker (lighter) than
// the words beside them.
var keyColor = lipgloss.AdaptiveColor{Light: "#3C3C3C", Dark: "#B8B8B8"}

// DefaultStyles returns the dashboard's default look.
func DefaultStyles() Styles {
	return Styles{
		Header:   lipgloss.NewStyle().Bold(true),
		Selected: lipgloss.NewStyle().Reverse(true),
		Muted:    lipgloss.NewStyle().Foreground(subtle),
		Title:    lipgloss.NewStyle().Bold(true),
		Border:   lipgloss.NewStyle().Foreground(subtle),
	}
}

const (
	// selectedMarker and plainMarker start every table line: the marker
	// shows the focused row even where styles are stripped (NO_COLOR, the
	// ASCII profile).
	selectedMarker = "▶ "
	plainMarker    = "  "
)

// HelpStyles are the footer's and help's looks. The bubbles defaults are
// greys of about 2:1 against a light background (#B2B2B2 on white) and a
// dark one (#4A4A4A on black), which a light terminal, or a dim screen,
// loses.
func HelpStyles() help.Styles {
	key := lipgloss.NewStyle().Foreground(keyColor)
	muted := lipgloss.NewStyle().Foreground(subtle)
	return help.Styles{
		Ellipsis:       muted,
		ShortKey:       key,
		ShortDesc:      muted,
		ShortSeparator: muted,
		FullKey:        key,
		FullDesc:       muted,
		FullSeparator:  muted,
	}
}

package widget

import "github.com/charmbracelet/lipgloss"

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

// DefaultStyles returns the dashboard's default look.
func DefaultStyles() Styles {
	subtle := lipgloss.AdaptiveColor{Light: "#6B6B6B", Dark: "#8A8A8A"}
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

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
	// Pass, Fail and Unchecked draw what a check found (Tone); Fail also
	// what failed (a write, a field), Unchecked what could not be checked:
	// neither green nor red, never mistaken for a pass.
	Pass, Fail, Unchecked lipgloss.Style
	// Error draws the status line's error and a countdown about to end.
	Error lipgloss.Style
	// Brand draws the header's name and help's headings; Badge the
	// SANDBOX / READ-ONLY badge; ActiveTab the tab on show.
	Brand, Badge, ActiveTab lipgloss.Style
}

// Tone is what a value says, for the theme to draw: a check passed,
// failed, or could not be run; ToneNone draws it plain.
type Tone int

const (
	ToneNone Tone = iota
	TonePass
	ToneFail
	ToneUnchecked
)

// Tone is the style that draws tone t.
func (s Styles) Tone(t Tone) lipgloss.Style {
	switch t {
	case TonePass:
		return s.Pass
	case ToneFail:
		return s.Fail
	case ToneUnchecked:
		return s.Unchecked
	}
	return lipgloss.NewStyle()
}

// subtle is secondary text that still reads: 5.3:1 against white, 6.4:1
// against black (WCAG asks 4.5:1).
var subtle = lipgloss.AdaptiveColor{Light: "#6B6B6B", Dark: "#8A8A8A"}

// keyColor draws the keys of the footer and of help, darker (lighter) than
// the words beside them.
var keyColor = lipgloss.AdaptiveColor{Light: "#3C3C3C", Dark: "#B8B8B8"}

// The colours of what a check found, and of an error: readable on light
// and dark backgrounds alike.
var (
	passColor      = lipgloss.AdaptiveColor{Light: "#1A7F37", Dark: "#3FB950"}
	failColor      = lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#F85149"}
	uncheckedColor = lipgloss.AdaptiveColor{Light: "#9A6700", Dark: "#D29922"}
)

// DefaultStyles returns the dashboard's look: every style of the screens
// and the chrome, in this one place.
func DefaultStyles() Styles {
	return Styles{
		Header:    lipgloss.NewStyle().Bold(true),
		Selected:  lipgloss.NewStyle().Reverse(true),
		Muted:     lipgloss.NewStyle().Foreground(subtle),
		Title:     lipgloss.NewStyle().Bold(true),
		Border:    lipgloss.NewStyle().Foreground(subtle),
		Pass:      lipgloss.NewStyle().Foreground(passColor).Bold(true),
		Fail:      lipgloss.NewStyle().Foreground(failColor).Bold(true),
		Unchecked: lipgloss.NewStyle().Foreground(uncheckedColor).Bold(true),
		Error:     lipgloss.NewStyle().Foreground(failColor),
		Brand:     lipgloss.NewStyle().Bold(true),
		Badge:     lipgloss.NewStyle().Bold(true).Reverse(true),
		ActiveTab: lipgloss.NewStyle().Bold(true).Underline(true),
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

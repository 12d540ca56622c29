package views

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// FailStyle draws what failed: a check, a field, a write.
var FailStyle = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#F85149"}).Bold(true)

// FitLines cuts lines to at most w cells and height lines.
func FitLines(lines []string, w, height int) []string {
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return lines
}

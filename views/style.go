package views

import "github.com/charmbracelet/lipgloss"

// FailStyle draws what failed: a check, a field, a write.
var FailStyle = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#F85149"}).Bold(true)

package app

import "github.com/charmbracelet/x/ansi"

// truncateANSI cuts a styled line to w cells without breaking its escape
// sequences.
func truncateANSI(s string, w int) string { return ansi.Truncate(s, w, "…") }

package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// colorSGR matches an escape sequence that sets a colour: 30–37, 39,
// 40–47, 49, 90–97, 100–107 and the 38;… / 48;… forms.
var colorSGR = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`)

// TestColoursAsTheTerminalWants: in tmux with a truecolor terminal, the
// dashboard follows theme (light greys darker than dark's) and NO_COLOR
// (no colour at all: the focused row's ▶ and the brackets around the tab
// on show keep the meaning), as capture-pane -e shows.
func TestColoursAsTheTerminalWants(t *testing.T) {
	t.Parallel()
	base := slices.DeleteFunc(userEnv(t), func(kv string) bool { return strings.HasPrefix(kv, "NO_COLOR=") })
	// A person's terminal: CI (set by CI, inherited by the tmux server)
	// makes termenv take any output for no terminal, with no colour.
	base = append(base, "COLORTERM=truecolor", "CI=")
	screen := func(extra ...string) string {
		tm := startTmux(t, append(slices.Clone(base), extra...), 120, 36)
		tm.waitFor(30*time.Second, "Team & Advisors Vesting", "? help")
		return tm.capture("-e")
	}
	// The footer's keys: #3C3C3C on a light background, #B8B8B8 on a dark one.
	light, dark := screen("ALLOT_THEME=light"), screen("ALLOT_THEME=dark")
	if !strings.Contains(light, "38;2;60;60;60m") || strings.Contains(light, "38;2;184;184;184m") {
		t.Errorf("theme light: the footer's keys are not dark grey:\n%q", light)
	}
	if !strings.Contains(dark, "38;2;184;184;184m") || strings.Contains(dark, "38;2;60;60;60m") {
		t.Errorf("theme dark: the footer's keys are not light grey:\n%q", dark)
	}
	plain := screen("NO_COLOR=1", "ALLOT_THEME=dark")
	if m := colorSGR.FindString(plain); m != "" {
		t.Errorf("NO_COLOR: a colour %q on screen", m)
	}
	for _, meaning := range []string{"▶ Team & Advisors Vesting", "[1 Contracts]", "SANDBOX"} {
		if !strings.Contains(plain, meaning) {
			t.Errorf("NO_COLOR: %q is not on screen:\n%s", meaning, plain)
		}
	}
}

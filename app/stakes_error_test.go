package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestStakesWalletErrorGoesWhenMendedOrLeft: a wallet filter the service
// refuses (a wrong checksum) says why on the status line; the error goes
// once a wallet is found, and once the filter is left with esc: it is no
// longer about what the page shows.
func TestStakesWalletErrorGoesWhenMendedOrLeft(t *testing.T) {
	t.Parallel()
	good := ""
	for _, leave := range []string{"good wallet", "esc"} {
		t.Run(leave, func(t *testing.T) {
			f := newFlow(t)
			if good == "" {
				good = f.s.Fixtures.Wallets[0].Address
			}
			i := strings.IndexAny(good[2:], "abcdefABCDEF") + 2
			bad := good[:i] + flipCase(good[i:i+1]) + good[i+1:]
			f.runes("2").wait("Season").key(tea.KeyEnter).wait("stakes")
			f.runes("/").typ(bad).key(tea.KeyEnter).wait("✗ stakes of")
			if leave == "esc" {
				f.key(tea.KeyEsc).wait("esc back")
			} else {
				f.runes("/").key(tea.KeyCtrlU).typ(good).key(tea.KeyEnter).wait("(asked the service)")
			}
			m := f.quit()
			if v := m.View(); strings.Contains(v, "✗ stakes of") {
				t.Errorf("the error stays after %s:\n%s", leave, v)
			}
		})
	}
}

// flipCase turns letters of s to the other case.
func flipCase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'f':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'F':
			return r - 'A' + 'a'
		}
		return r
	}, s)
}

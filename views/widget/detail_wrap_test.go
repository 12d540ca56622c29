package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestDetailHashWrapsInEqualParts: a hash a column too long for the pane
// is cut in two equal parts, not a line and one character under it.
func TestDetailHashWrapsInEqualParts(t *testing.T) {
	hash := "0xf33a7b57603e4a6ea8b42b8ce532196504e9c65e74dc87ef3dae81643b6c5dbb"
	d := NewDetail()
	d.SetSize(80, 10)
	d.SetFields([]Field{{Label: "Transaction", Value: hash}, {Label: "Confirmations", Value: "1"}})
	lines := strings.Split(ansi.Strip(d.View()), "\n")
	first, second := strings.TrimSpace(strings.TrimPrefix(lines[0], "Transaction")), strings.TrimSpace(lines[1])
	if first+second != hash || len(first) != 33 || len(second) != 33 {
		t.Errorf("the hash is laid out as %q / %q", first, second)
	}
}

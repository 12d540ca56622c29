package widget

import (
	"strings"
	"testing"

	"allot/internal/sanitize"
)

// FuzzTableCell checks that no cell text, however hostile, puts an escape
// sequence on screen or widens a line past the table.
func FuzzTableCell(f *testing.F) {
	for _, s := range []string{"0xabc", "\x1b]52;c;ZXZpbA==\a", "日本語テキスト", "a\u0301\u202e\tb", "\xff\xfe"} {
		f.Add(s, uint8(80))
	}
	rows := makeStakes(3)
	f.Fuzz(func(t *testing.T, cell string, width uint8) {
		rows[1].Wallet = cell
		rows[2].Status = cell
		tb := newStakeTable(rows, int(width), 8, TableConfig[stake]{})
		tb.Update(keyMsg("j"))
		view := tb.View()
		if strings.ContainsAny(view, "\x1b\a\r") {
			t.Fatalf("escape or control character in view of %q:\n%q", cell, view)
		}
		checkFits(t, view, int(width), 8)
		if idx := tb.FilterIndices(cell); cell != "" && len(sanitize.Line(cell)) <= maxIndexedCell && len(idx) == 0 {
			// The row holding the cell must be found by its own text.
			t.Fatalf("filtering by a cell's own text %q found nothing", cell)
		}
	})
}

package widget

import (
	"strings"
	"testing"
	"unicode"

	"github.com/shopspring/decimal"

	"allot/internal/sanitize"
)

// FuzzFormatAmount checks that formatting never changes the value of an
// amount it accepts and never lets a control character through.
func FuzzFormatAmount(f *testing.F) {
	for _, s := range []string{"0", "1234567.5", "-1000.000", "1e18", "2.5E-3", ".5", "abc", "1e999999", "\x1b]52;c;x\a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		out := FormatAmount(s)
		for _, r := range out {
			if unicode.IsControl(r) {
				t.Fatalf("FormatAmount(%q) = %q carries a control character", s, out)
			}
		}
		if _, _, _, ok := parseDecimal(strings.TrimSpace(s)); !ok {
			return
		}
		in, err := decimal.NewFromString(strings.TrimSpace(s))
		if err != nil {
			return // our grammar accepts a few forms the library does not ("5.")
		}
		got, err := decimal.NewFromString(strings.ReplaceAll(out, ",", ""))
		if err != nil || !got.Equal(in) {
			t.Fatalf("FormatAmount(%q) = %q changes the value (%v)", s, out, err)
		}
	})
}

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

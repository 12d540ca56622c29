package widget

import (
	"strings"

	"github.com/shopspring/decimal"
)

// leftEighths[i] is a block i/8 of a cell wide, growing from the left.
var leftEighths = [8]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// lowerEighths[i] is a block i/8 of a cell high, growing from the bottom.
var lowerEighths = [8]string{"", "▁", "▂", "▃", "▄", "▅", "▆", "▇"}

// Bar draws value as a horizontal bar in exactly width cells, full is the
// value of a bar that fills them all; eighths of a cell make small
// differences visible. Any positive value shows at least a sliver; zero,
// negative values and a non-positive full draw an empty bar. It fits in a
// table column, for example total staked compared across pools.
func Bar(value, full decimal.Decimal, width int) string {
	if width <= 0 {
		return ""
	}
	units := int64(0)
	if full.IsPositive() && value.IsPositive() {
		most := int64(width) * 8
		if value.Cmp(full) >= 0 {
			units = most
		} else {
			units = max(value.Mul(decimal.NewFromInt(most)).Div(full).IntPart(), 1)
		}
	}
	return hbar(int(units), width)
}

// hbar draws a bar of units eighths, padded with spaces to width cells.
func hbar(units, width int) string {
	whole, part := units/8, units%8
	var b strings.Builder
	b.Grow(width * 3)
	b.WriteString(strings.Repeat("█", whole))
	pad := width - whole
	if part > 0 {
		b.WriteString(leftEighths[part])
		pad--
	}
	b.WriteString(strings.Repeat(" ", max(pad, 0)))
	return b.String()
}

package widget

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Bucket is one bar of a histogram: Count values from From (inclusive) to
// To (exclusive), both as display labels. A bucket with From == To holds
// exactly that value.
type Bucket struct {
	From, To string
	Count    int
}

func (b Bucket) label() string {
	if b.From == b.To {
		return b.From
	}
	return b.From + "–" + b.To
}

// The decades LogBuckets distinguishes: from 1e-24 (below the smallest unit
// of an 18-decimal token) to 1e36. Values outside land in the end buckets,
// so a hostile amount cannot make thousands of empty ones.
const (
	minDecade = -24
	maxDecade = 36
)

// LogBuckets sorts amounts into powers of ten (1–10, 10–100, 1k–10k, ...),
// the scale on which stake sizes spread. Zero and negative amounts share a
// bucket labelled "0". Empty decades between the smallest and the largest
// amount are kept, so the gaps show.
func LogBuckets(amounts []decimal.Decimal) []Bucket {
	counts := make([]int, maxDecade-minDecade+1)
	zero := 0
	lo, hi := maxDecade, minDecade
	for _, a := range amounts {
		if !a.IsPositive() {
			zero++
			continue
		}
		k := decade(a)
		counts[k-minDecade]++
		lo, hi = min(lo, k), max(hi, k)
	}
	var out []Bucket
	if zero > 0 {
		out = append(out, Bucket{From: "0", To: "0", Count: zero})
	}
	for k := lo; k <= hi; k++ {
		out = append(out, Bucket{From: pow10Label(k), To: pow10Label(k + 1), Count: counts[k-minDecade]})
	}
	return out
}

// decade is floor(log10(a)) for a positive a, exactly: the position of its
// leading digit.
func decade(a decimal.Decimal) int {
	k := a.NumDigits() + int(a.Exponent()) - 1
	return min(max(k, minDecade), maxDecade)
}

// pow10Label names 10^k compactly: 1, 10, 100, 1k, ..., 100T, then 1e15;
// 0.1 to 0.0001, then 1e-5.
func pow10Label(k int) string {
	switch {
	case k >= 15 || k < -4:
		return "1e" + strconv.Itoa(k)
	case k < 0:
		return "0." + strings.Repeat("0", -k-1) + "1"
	}
	suffix := [...]string{"", "k", "M", "B", "T"}[k/3]
	return "1" + strings.Repeat("0", k%3) + suffix
}

// Histogram draws buckets as horizontal bars, one per line, with the
// bucket's range on the left (the y axis), its count on the right and a
// baseline under the bars (the x axis). The result is at most width cells
// wide and height lines high; when there are more buckets than lines,
// neighbours are merged.
func Histogram(buckets []Bucket, width, height int) string {
	if len(buckets) == 0 || width <= 0 || height <= 0 {
		return ""
	}
	rows := height
	if height > 1 {
		rows-- // the baseline
	}
	if len(buckets) > rows {
		buckets = mergeBuckets(buckets, rows)
	}
	labelW, countW, most := 0, 0, 0
	for _, b := range buckets {
		labelW = max(labelW, displayWidth(b.label()))
		countW = max(countW, len(FormatCount(b.Count)))
		most = max(most, b.Count)
	}
	barW := width - labelW - 3 - countW // label " │" bar " " count
	if barW < 1 {
		countW = 0
		barW = max(width-labelW-2, 0)
	}
	lines := make([]string, 0, height)
	for _, b := range buckets {
		units := 0
		if most > 0 {
			units = b.Count * barW * 8 / most
			if b.Count > 0 {
				units = max(units, 1)
			}
		}
		line := fit(b.label(), labelW, AlignRight) + " │" + hbar(units, barW)
		if countW > 0 {
			line += " " + fit(FormatCount(b.Count), countW, AlignRight)
		}
		lines = append(lines, truncate(line, width))
	}
	if height > 1 {
		axis := strings.Repeat(" ", labelW) + " └" + strings.Repeat("─", barW)
		lines = append(lines, truncate(axis, width))
	}
	return strings.Join(lines, "\n")
}

// mergeBuckets joins neighbouring buckets into at most n.
func mergeBuckets(buckets []Bucket, n int) []Bucket {
	size := (len(buckets) + n - 1) / n
	out := make([]Bucket, 0, n)
	for i := 0; i < len(buckets); i += size {
		j := min(i+size, len(buckets))
		m := Bucket{From: buckets[i].From, To: buckets[j-1].To}
		for _, b := range buckets[i:j] {
			m.Count += b.Count
		}
		out = append(out, m)
	}
	return out
}

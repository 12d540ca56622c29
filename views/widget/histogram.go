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

// steps are the bin edges within a decade: 1, 2 and 5 times its power of
// ten, the series people read scales in (1, 2, 5, 10, 20, 50, ...). Three
// bins a decade show the shape of stake sizes that a decade alone hides.
var steps = [...]int{1, 2, 5}

// binCount is the number of 1-2-5 bins between the end decades.
const binCount = (maxDecade - minDecade + 1) * len(steps)

// LogBuckets sorts amounts into bins of a 1-2-5 scale (1–2, 2–5, 5–10,
// 10–20, ..., 1k–2k, ...), the log scale on which stake sizes spread. Zero
// and negative amounts share a bucket labelled "0". Empty bins between the
// smallest and the largest amount are kept, so the gaps show.
func LogBuckets(amounts []decimal.Decimal) []Bucket {
	var b Bins
	for _, a := range amounts {
		b.AddDecimal(a)
	}
	return b.Buckets()
}

// Bins counts amounts in LogBuckets' bins one at a time, from their
// magnitude alone: a caller holding amounts as integers counts a million
// of them without making a decimal of each. The zero value is empty.
type Bins struct {
	counts [binCount]int
	zero   int
}

// Add counts a positive amount lead.ddd × 10^decade, lead its leading
// digit (1 to 9): 250 is Add(2, 2), 0.07 is Add(-2, 7). Decades past
// either end count in the end bins.
func (b *Bins) Add(decade, lead int) {
	b.counts[bin(decade, lead)]++
}

// AddZero counts an amount of zero or less.
func (b *Bins) AddZero() { b.zero++ }

// AddDecimal counts an amount, exactly.
func (b *Bins) AddDecimal(a decimal.Decimal) {
	if !a.IsPositive() {
		b.zero++
		return
	}
	b.Add(a.NumDigits()+int(a.Exponent())-1, int(a.Coefficient().String()[0]-'0'))
}

// Merge adds the counts of o.
func (b *Bins) Merge(o *Bins) {
	for i, n := range o.counts {
		b.counts[i] += n
	}
	b.zero += o.zero
}

// Total is the number of amounts counted.
func (b *Bins) Total() int {
	n := b.zero
	for _, c := range b.counts {
		n += c
	}
	return n
}

// Buckets are the bins from the smallest amount's to the largest's, after
// a "0" bucket when some amount was zero or less.
func (b *Bins) Buckets() []Bucket {
	lo, hi := binCount, -1
	for i, n := range b.counts {
		if n > 0 {
			lo, hi = min(lo, i), max(hi, i)
		}
	}
	var out []Bucket
	if b.zero > 0 {
		out = append(out, Bucket{From: "0", To: "0", Count: b.zero})
	}
	for i := lo; i <= hi; i++ {
		out = append(out, Bucket{From: edgeLabel(i), To: edgeLabel(i + 1), Count: b.counts[i]})
	}
	return out
}

// bin is the index of the 1-2-5 bin of lead.ddd × 10^k: its decade, and
// where its leading digit falls among the steps. Amounts past either end
// land in the end bins.
func bin(k, lead int) int {
	switch {
	case k < minDecade:
		return 0
	case k > maxDecade:
		return binCount - 1
	}
	j := 0
	for j+1 < len(steps) && lead >= steps[j+1] {
		j++
	}
	return (k-minDecade)*len(steps) + j
}

// edgeLabel names the lower edge of bin i: its step times its decade's
// power of ten, compactly (1, 2, 5, 10, ..., 500, 1k, 2k, ..., 500T, then
// 1e15, 2e15; 0.5 to 0.0001, then 5e-5).
func edgeLabel(i int) string {
	m, k := steps[i%len(steps)], i/len(steps)+minDecade
	digit := strconv.Itoa(m)
	switch {
	case k >= 15 || k < -4:
		return digit + "e" + strconv.Itoa(k)
	case k < 0:
		return "0." + strings.Repeat("0", -k-1) + digit
	}
	suffix := [...]string{"", "k", "M", "B", "T"}[k/3]
	return digit + strings.Repeat("0", k%3) + suffix
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
		line := fitCell(b.label(), labelW, AlignRight) + " │" + hbar(units, barW)
		if countW > 0 {
			line += " " + fitCell(FormatCount(b.Count), countW, AlignRight)
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

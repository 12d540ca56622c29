package widget

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func decimals(ss ...string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		out[i] = decimal.RequireFromString(s)
	}
	return out
}

func TestBar(t *testing.T) {
	full := decimal.NewFromInt(100)
	tests := []struct {
		value string
		width int
		want  string
	}{
		{"0", 5, "     "},
		{"-3", 5, "     "},
		{"1", 5, "▏    "},  // tiny but visible
		{"33", 5, "█▋   "}, // 13.2 eighths
		{"50", 5, "██▌  "},
		{"99", 5, "████▉"},
		{"100", 5, "█████"},
		{"150", 5, "█████"}, // clamped
		{"50", 0, ""},
		{"123456789012345678901234567890.5", 3, "███"},
	}
	for _, tt := range tests {
		got := Bar(decimal.RequireFromString(tt.value), full, tt.width)
		if got != tt.want {
			t.Errorf("Bar(%s, 100, %d) = %q, want %q", tt.value, tt.width, got, tt.want)
		}
		if displayWidth(got) != tt.width {
			t.Errorf("Bar(%s) is %d cells, want %d", tt.value, displayWidth(got), tt.width)
		}
	}
	if got := Bar(decimal.NewFromInt(5), decimal.Zero, 4); got != "    " {
		t.Errorf("a zero full value draws an empty bar, got %q", got)
	}
}

func TestLogBuckets(t *testing.T) {
	got := LogBuckets(decimals("0.5", "3", "7", "12", "15", "18", "250", "3000", "3500", "0", "1", "10.000", "1.999", "2", "4.99"))
	want := []Bucket{
		{"0", "0", 1}, {"0.5", "1", 1}, {"1", "2", 2}, {"2", "5", 3}, {"5", "10", 1}, {"10", "20", 4}, {"20", "50", 0},
		{"50", "100", 0}, {"100", "200", 0}, {"200", "500", 1}, {"500", "1k", 0}, {"1k", "2k", 0}, {"2k", "5k", 2},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("bucket %d = %v, want %v", i, got[i], want[i])
		}
	}
	// Empty bins in between are kept; extremes are clamped.
	got = LogBuckets(decimals("2", "20000", "1e999", "1e-999"))
	if len(got) != (maxDecade-minDecade+1)*len(steps) || got[1].Count != 0 || got[len(got)-1].From != "5e36" || got[0].From != "1e-24" {
		t.Errorf("gaps or clamping wrong: %d buckets, %v", len(got), got)
	}
	if got := LogBuckets(nil); len(got) != 0 {
		t.Errorf("no amounts, no buckets: %v", got)
	}
}

func TestEdgeLabel(t *testing.T) {
	at := func(step, k int) int { return (k-minDecade)*len(steps) + step }
	want := map[int]string{
		at(2, -5): "5e-5", at(0, -4): "0.0001", at(1, -1): "0.2", at(0, 0): "1", at(2, 0): "5", at(0, 2): "100",
		at(0, 3): "1k", at(1, 3): "2k", at(2, 7): "50M", at(0, 9): "1B", at(2, 14): "500T", at(1, 15): "2e15",
	}
	for i, w := range want {
		if got := edgeLabel(i); got != w {
			t.Errorf("edgeLabel(%d) = %q, want %q", i, got, w)
		}
	}
}

func TestHistogram(t *testing.T) {
	buckets := LogBuckets(decimals("0.5", "3", "7", "12", "15", "18", "250", "3000", "3500", "0"))
	tests := []struct {
		width, height int
		want          string
	}{
		{40, 14, "" +
			"      0 │█████████▋                    1\n" +
			"  0.5–1 │█████████▋                    1\n" +
			"    1–2 │                              0\n" +
			"    2–5 │█████████▋                    1\n" +
			"   5–10 │█████████▋                    1\n" +
			"  10–20 │█████████████████████████████ 3\n" +
			"  20–50 │                              0\n" +
			" 50–100 │                              0\n" +
			"100–200 │                              0\n" +
			"200–500 │█████████▋                    1\n" +
			" 500–1k │                              0\n" +
			"  1k–2k │                              0\n" +
			"  2k–5k │███████████████████▎          2\n" +
			"        └─────────────────────────────"},
		// Fewer lines than buckets: neighbours merge.
		{40, 5, "" +
			"   0–5 │██████████████████████▌        3\n" +
			" 5–100 │██████████████████████████████ 4\n" +
			"100–2k │███████▌                       1\n" +
			" 2k–5k │███████████████                2\n" +
			"       └──────────────────────────────"},
	}
	for _, tt := range tests {
		got := Histogram(buckets, tt.width, tt.height)
		if got != tt.want {
			t.Errorf("Histogram(%dx%d):\n%s\nwant:\n%s", tt.width, tt.height, got, tt.want)
		}
	}
	for _, size := range [][2]int{{40, 8}, {12, 3}, {5, 2}, {1, 1}} {
		checkFits(t, Histogram(buckets, size[0], size[1]), size[0], size[1])
	}
}

func TestStepChart(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	schedule := []Point{
		{start.AddDate(1, 0, 0), 0.7}, // out of order on purpose
		{start, 0.1},
		{start.AddDate(0, 6, 0), 0.4},
		{start.AddDate(1, 6, 0), 1},
	}
	now := start.AddDate(0, 8, 0)
	tests := []struct {
		width, height int
		want          string
	}{
		{40, 8, "" +
			"100%┤               ┊                  █\n" +
			"    │               ┊       ▂▂▂▂▂▂▂▂▂▂▂█\n" +
			"    │               ┊       ████████████\n" +
			" 50%┤            ▃▃▃▃▃▃▃▃▃▃▃████████████\n" +
			"    │            ███████████████████████\n" +
			"    │▅▅▅▅▅▅▅▅▅▅▅▅███████████████████████\n" +
			"  0%└───────────────┴───────────────────\n" +
			"     2026-01-01    now        2027-07-01"},
		{12, 4, "" +
			"100%┤   ┊ ▃█\n" +
			"    │▂▂▆▆▆██\n" +
			"  0%└───┴───\n" +
			"       now"},
	}
	for _, tt := range tests {
		got := StepChart(schedule, now, tt.width, tt.height)
		if got != tt.want {
			t.Errorf("StepChart(%dx%d):\n%s\nwant:\n%s", tt.width, tt.height, got, tt.want)
		}
	}
	// An odd number of rows has no row ending at 50%: the middle is left
	// unlabelled rather than marked 57%.
	if got := StepChart(schedule, now, 40, 9); strings.Count(got, "%") != 2 {
		t.Errorf("StepChart(40x9) labels a row other than 0%% and 100%%:\n%s", got)
	}
	for _, size := range [][2]int{{40, 8}, {80, 20}, {8, 3}, {7, 3}, {20, 2}} {
		checkFits(t, StepChart(schedule, now, size[0], size[1]), size[0], size[1])
	}
	if got := StepChart(nil, now, 40, 8); got != "" {
		t.Errorf("no points should draw nothing, got %q", got)
	}
	// now after the last step: the range stretches to now and the fill is full there.
	late := StepChart(schedule, start.AddDate(3, 0, 0), 40, 6)
	if lines := strings.Split(late, "\n"); !strings.HasSuffix(lines[0], "█") || !strings.HasSuffix(lines[len(lines)-1], "now") {
		t.Errorf("late now:\n%s", late)
	}
}

// TestBinsFromMagnitudes: counting amounts by decade and leading digit
// gives the buckets their decimals give, and merged counts add up.
func TestBinsFromMagnitudes(t *testing.T) {
	amounts := decimals("0.5", "3", "7", "12", "15", "18", "250", "3000", "3500", "0", "-2", "1e40", "1e-30")
	var byDecimal, byMagnitude, half1, half2 Bins
	for i, a := range amounts {
		byDecimal.AddDecimal(a)
		if !a.IsPositive() {
			byMagnitude.AddZero()
		} else {
			lead := int(a.Coefficient().String()[0] - '0')
			byMagnitude.Add(a.NumDigits()+int(a.Exponent())-1, lead)
		}
		if i%2 == 0 {
			half1.AddDecimal(a)
		} else {
			half2.AddDecimal(a)
		}
	}
	half1.Merge(&half2)
	want := byDecimal.Buckets()
	for name, got := range map[string][]Bucket{"by magnitude": byMagnitude.Buckets(), "merged": half1.Buckets()} {
		if len(got) != len(want) {
			t.Fatalf("%s: %d buckets, want %d", name, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: bucket %d is %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	if n := half1.Total(); n != len(amounts) {
		t.Errorf("Total is %d, want %d", n, len(amounts))
	}
}

package widget

import (
	"strings"
	"testing"
	"time"
)

func TestFormatAmount(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"1", "1"},
		{"999", "999"},
		{"1000", "1,000"},
		{"1234567.5", "1,234,567.5"},
		{"1234567.50", "1,234,567.50"}, // decimals kept as given
		{"-1234.5", "-1,234.5"},
		{"-999", "-999"},
		{"+1000", "1,000"},
		{"0.000000000000000001", "0.000000000000000001"},
		{"1000000000000000000000000.123456789012345678", "1,000,000,000,000,000,000,000,000.123456789012345678"},
		{"007", "7"},
		{".5", "0.5"},
		{"5.", "5"},
		{" 12345 ", "12,345"},
		{"1.5e3", "1,500"},
		{"1E18", "1,000,000,000,000,000,000"},
		{"25e-4", "0.0025"},
		{"1.25e1", "12.5"},
		{"1e100000", "1e100000"}, // refused, shown as is
		{"", ""},
		{"-", "-"},
		{"12a", "12a"},
		{"1,000", "1,000"},
		{"NaN", "NaN"},
		{"1.2.3", "1.2.3"},
		{"\x1b[31m5", "^[[31m5"}, // not a number: sanitized, unchanged otherwise
	}
	for _, tt := range tests {
		if got := FormatAmount(tt.in); got != tt.want {
			t.Errorf("FormatAmount(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", -1234567: "-1,234,567"} {
		if got := FormatCount(n); got != want {
			t.Errorf("FormatCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormatTime(t *testing.T) {
	now := time.Date(2026, 11, 22, 13, 4, 30, 0, time.UTC)
	tests := []struct {
		t    time.Time
		want string
	}{
		{now.Add(-3 * time.Hour), "2026-11-22 10:04 UTC (3h ago)"},
		{now.Add(5*24*time.Hour + time.Hour), "2026-11-27 14:04 UTC (in 5d)"},
		{now.Add(-20 * time.Second), "2026-11-22 13:04 UTC (just now)"},
		{now.Add(-59 * time.Minute), "2026-11-22 12:05 UTC (59m ago)"},
		{now.Add(-400 * 24 * time.Hour), "2025-10-18 13:04 UTC (1y ago)"},
		{now.In(time.FixedZone("CET", 3600)).Add(-time.Hour), "2026-11-22 12:04 UTC (1h ago)"},
		{time.Time{}, "—"},
	}
	for _, tt := range tests {
		if got := FormatTime(tt.t, now); got != tt.want {
			t.Errorf("FormatTime(%v) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0s"},
		{45, "45s"},
		{90, "1m 30s"},
		{3600, "1h"},
		{90061, "1d 1h"},
		{86400 + 5*60, "1d"}, // no gap: "1d 0h 5m" would mislead
		{30 * 86400, "30d"},
		{-90, "-1m 30s"},
		{-9223372036854775808, "-106751991167300d 15h"},
	}
	for _, tt := range tests {
		if got := FormatDuration(tt.in); got != tt.want {
			t.Errorf("FormatDuration(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncateByDisplayWidth(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"abcdef", 4, "abc…"},
		{"abc", 3, "abc"},
		{"日本語テキスト", 5, "日本…"}, // wide characters count twice
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		got := truncate(tt.in, tt.w)
		if got != tt.want || displayWidth(got) > tt.w {
			t.Errorf("truncate(%q, %d) = %q", tt.in, tt.w, got)
		}
	}
	if got := fitCell("日本語", 7, AlignRight); got != " 日本語" {
		t.Errorf("fit pads by display width: %q", got)
	}
	if got := fitCell("x", 3, AlignLeft); got != "x  " || strings.Count(got, " ") != 2 {
		t.Errorf("fit left: %q", got)
	}
}

func TestFormatAmountMin(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"127721.3", "127,721.30"},
		{"3042191.07", "3,042,191.07"},
		{"1000", "1,000.00"},
		{"0.123456789012345678", "0.123456789012345678"}, // never rounded
		{"1.5e3", "1,500.00"},
		{"12a", "12a"}, // not a number: shown as it is
	} {
		if got := FormatAmountMin(tt.in, 2); got != tt.want {
			t.Errorf("FormatAmountMin(%q, 2) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAppendAmountMinIsFormatAmountMin: the allocation-free form writes
// what FormatAmountMin writes.
func TestAppendAmountMinIsFormatAmountMin(t *testing.T) {
	for _, s := range []string{"0", "1", "12", "123", "1234", "1234567.5", "-1000", "0.000000000000000001", "007.10",
		"1530.66", "15000", "123456789012345678901234567890.123", "-2.5"} {
		if got, want := string(AppendAmountMin([]byte("x"), []byte(s), 2)), "x"+FormatAmountMin(s, 2); got != want {
			t.Errorf("AppendAmountMin(%q) = %q, want %q", s, got, want)
		}
	}
	for s, want := range map[string]string{"1234567.5": "1,234,567.50", "15000": "15,000.00", "-": "-", "abc": "abc", "": ""} {
		if got := string(AppendAmountMin(nil, []byte(s), 2)); got != want {
			t.Errorf("AppendAmountMin(%q) = %q, want %q", s, got, want)
		}
	}
}

package amount

import "testing"

// TestTokensDropsEmptyZeros: a balance the service writes "2000.0000"
// reads as every other amount, 2,000.00, not "2,000.0000"; digits that
// say something are kept, never rounded.
func TestTokensDropsEmptyZeros(t *testing.T) {
	for in, want := range map[string]string{
		"2000.0000":  "2,000.00",
		"2000.5000":  "2,000.50",
		"5145.7595":  "5,145.7595",
		"5145.75950": "5,145.7595",
		"0.0001":     "0.0001",
		"250000":     "250,000.00",
		"-10.000":    "-10.00",
		"1.5e3":      "1,500.00",
		"127721.3":   "127,721.30",
	} {
		if got := Tokens(in); got != want {
			t.Errorf("Tokens(%q) = %q, want %q", in, got, want)
		}
		if got := string(AppendTokens(nil, []byte(in))); got != want {
			t.Errorf("AppendTokens(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPercent: an APY reads as the dashboard's pools and allot pools write
// it, two decimals at least and none lost.
func TestPercent(t *testing.T) {
	for in, want := range map[string]string{"6.5": "6.50%", "16.875": "16.875%", "20": "20.00%"} {
		if got := Percent(in); got != want {
			t.Errorf("Percent(%q) = %q, want %q", in, got, want)
		}
	}
}

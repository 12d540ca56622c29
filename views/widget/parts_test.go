package widget

import "testing"

func TestJoinPartsDropsWholeParts(t *testing.T) {
	parts := []string{"100,000 stakes", "staked 153,145,859.01", "withdrawn 6,434,573.05 (4,041)", "largest 20,999.4"}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{200, "100,000 stakes · staked 153,145,859.01 · withdrawn 6,434,573.05 (4,041) · largest 20,999.4"},
		{90, "100,000 stakes · staked 153,145,859.01 · withdrawn 6,434,573.05 (4,041) · largest 20,999.4"},
		{89, "100,000 stakes · staked 153,145,859.01 · withdrawn 6,434,573.05 (4,041)"},
		{60, "100,000 stakes · staked 153,145,859.01"},
		{38, "100,000 stakes · staked 153,145,859.01"},
		{37, "100,000 stakes"},
		{14, "100,000 stakes"},
		// Only a first part too wide on its own is cut.
		{10, "100,000 s…"},
		{0, ""},
	} {
		if got := JoinParts(tc.width, " · ", parts...); got != tc.want {
			t.Errorf("width %d: got %q, want %q", tc.width, got, tc.want)
		}
		if got := JoinParts(tc.width, " · ", parts...); displayWidth(got) > tc.width {
			t.Errorf("width %d: %q is wider", tc.width, got)
		}
	}
}

func TestJoinPartsKeepsOrderAfterADroppedPart(t *testing.T) {
	// A later, shorter part is not drawn once an earlier one was dropped:
	// what shows is always a prefix of the parts, in their order.
	if got := JoinParts(20, " · ", "one", "a part too long to fit", "two"); got != "one" {
		t.Errorf("got %q, want %q", got, "one")
	}
	if got := JoinParts(20, " · ", "", "one", "", "two"); got != "one · two" {
		t.Errorf("empty parts: got %q", got)
	}
}

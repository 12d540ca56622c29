package holder

import (
	"strings"
	"testing"
)

// TestPortalAccountWrapsIndented: an account line too long for the
// width wraps under itself, indented, not at the left edge where it read
// as another line.
func TestPortalAccountWrapsIndented(t *testing.T) {
	s := "  0x3e3Daf419A62d6665b5B6444e071475801B87Ae2  WALLET  eligible no · Exchange deposit address: exchanges cannot claim"
	lines := strings.Split(hang(s, 80, 4), "\n")
	if len(lines) < 2 {
		t.Fatalf("not wrapped at 80: %q", lines)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "    ") || len([]rune(l)) > 80 {
			t.Errorf("a wrapped line %q is not indented, or is wider than 80", l)
		}
	}
	if lines[0] != strings.TrimRight(lines[0], " ") || !strings.HasPrefix(lines[0], "  0x3e3D") {
		t.Errorf("first line %q", lines[0])
	}
}

package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapWordsShortensLongIDs: a review line naming a code hash at 80
// columns broke the hash across two lines, which read as two; a hash
// longer than a line is shortened in the middle, its brackets kept, and
// words still break at spaces. Another word too long is cut in equal parts.
func TestWrapWordsShortensLongIDs(t *testing.T) {
	hash := "0xa5cb1e60211a9d81b26e99139f99f9793de69e2c74ce464495041deafe55d4cb"
	s := "profile, its code as pinned (" + hash + ")"
	for _, width := range []int{64, 46} {
		lines := WrapWords(s, width)
		if len(lines) != 2 || lines[0] != "profile, its code as pinned" {
			t.Fatalf("at %d: %q", width, lines)
		}
		id := lines[1]
		if ansi.StringWidth(id) != width || !strings.HasPrefix(id, "(0xa5cb") || !strings.HasSuffix(id, "d4cb)") || !strings.Contains(id, "…") {
			t.Errorf("at %d the hash is %q", width, id)
		}
	}
	long := strings.Repeat("x", 70)
	for _, l := range WrapWords(long, 64) {
		if w := ansi.StringWidth(l); w != 35 {
			t.Errorf("a long word cut unevenly: %q", l)
		}
	}
	if got := WrapWords("a b c", 3); strings.Join(got, "|") != "a b|c" {
		t.Errorf("words: %q", got)
	}
	if got := WrapWords("short", 64); len(got) != 1 || got[0] != "short" {
		t.Errorf("a line that fits: %q", got)
	}
}

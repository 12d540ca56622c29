package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapWordsCutsLongWordsEvenly: a review line naming a code hash at 80
// columns left "4cb)" alone under it; a word longer than a line is cut in
// equal parts, words still break at spaces, and nothing is lost.
func TestWrapWordsCutsLongWordsEvenly(t *testing.T) {
	hash := "(0xa5cb1e60211a9d81b26e99139f99f9793de69e2c74ce464495041deafe55d4cb)"
	s := "profile, its code as pinned " + hash
	lines := WrapWords(s, 64)
	if got := strings.Join(lines, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(s, " ", "") {
		t.Fatalf("text lost: %q", lines)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 64 || w < 20 {
			t.Errorf("line of %d cells: %q (all: %q)", w, l, lines)
		}
	}
	if got := WrapWords("a b c", 3); strings.Join(got, "|") != "a b|c" {
		t.Errorf("words: %q", got)
	}
	if got := WrapWords("short", 64); len(got) != 1 || got[0] != "short" {
		t.Errorf("a line that fits: %q", got)
	}
}

package operator

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/views/widget"
	"allot/viewstest"
)

func TestPickListMarksInListOrder(t *testing.T) {
	t.Parallel()
	p := newPickList([]string{"a", "b", "c", "d"}, map[string]string{"b": "in the list"}, true)
	for _, k := range []string{"down", "down", " ", "up", "up", " ", "enter"} {
		chosen, done := p.key(viewstest.Key(k))
		if done != (k == "enter") {
			t.Fatalf("%q: done %v", k, done)
		}
		if done && !slices.Equal(chosen, []string{"a", "c"}) {
			t.Fatalf("chosen %v, want the marked a and c in the list's order", chosen)
		}
	}
}

func TestPickListSingle(t *testing.T) {
	t.Parallel()
	// The cursor starts on the first item not taken; space marks nothing
	// where one id is wanted; a taken id cannot be chosen.
	p := newPickList([]string{"a", "b"}, map[string]string{"a": "row 1"}, false)
	p.key(viewstest.Key(" "))
	if chosen, _ := p.key(viewstest.Key("enter")); !slices.Equal(chosen, []string{"b"}) {
		t.Fatalf("chosen %v", chosen)
	}
	p = newPickList([]string{"a", "b"}, map[string]string{"a": "row 1"}, false)
	p.key(viewstest.Key("up"))
	if chosen, done := p.key(viewstest.Key("enter")); len(chosen) != 0 || !done {
		t.Fatalf("a taken id was chosen: %v", chosen)
	}
	if chosen, done := newPickList([]string{"a"}, nil, false).key(viewstest.Key("esc")); len(chosen) != 0 || !done {
		t.Fatalf("esc chose %v", chosen)
	}
}

func TestPickListViewKeepsCursorInSight(t *testing.T) {
	t.Parallel()
	items := make([]string, 30)
	for i := range items {
		items[i] = strings.Repeat(string(rune('a'+i%26)), 3) + string(rune('0'+i/26))
	}
	p := newPickList(items, nil, true)
	for range 25 {
		p.key(viewstest.Key("down"))
	}
	lines := p.view(widget.DefaultStyles(), 6)
	if len(lines) != 6 || !strings.HasPrefix(ansi.Strip(lines[5]), "▶ [ ] "+items[25]) {
		t.Fatalf("view at 6 lines with the cursor on item 25:\n%s", strings.Join(lines, "\n"))
	}
}

package views

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/internal/journal"
	"allot/views/widget"
)

func TestPickListMarksInListOrder(t *testing.T) {
	p := newPickList([]string{"a", "b", "c", "d"}, map[string]string{"b": "in the list"}, true)
	for _, k := range []string{"down", "down", " ", "up", "up", " ", "enter"} {
		chosen, done := p.key(KeyMsg(k))
		if done != (k == "enter") {
			t.Fatalf("%q: done %v", k, done)
		}
		if done && !slices.Equal(chosen, []string{"a", "c"}) {
			t.Fatalf("chosen %v, want the marked a and c in the list's order", chosen)
		}
	}
}

func TestPickListSingle(t *testing.T) {
	// The cursor starts on the first item not taken; space marks nothing
	// where one id is wanted; a taken id cannot be chosen.
	p := newPickList([]string{"a", "b"}, map[string]string{"a": "row 1"}, false)
	p.key(KeyMsg(" "))
	if chosen, _ := p.key(KeyMsg("enter")); !slices.Equal(chosen, []string{"b"}) {
		t.Fatalf("chosen %v", chosen)
	}
	p = newPickList([]string{"a", "b"}, map[string]string{"a": "row 1"}, false)
	p.key(KeyMsg("up"))
	if chosen, done := p.key(KeyMsg("enter")); len(chosen) != 0 || !done {
		t.Fatalf("a taken id was chosen: %v", chosen)
	}
	if chosen, done := newPickList([]string{"a"}, nil, false).key(KeyMsg("esc")); len(chosen) != 0 || !done {
		t.Fatalf("esc chose %v", chosen)
	}
}

func TestPickListViewKeepsCursorInSight(t *testing.T) {
	items := make([]string, 30)
	for i := range items {
		items[i] = strings.Repeat(string(rune('a'+i%26)), 3) + string(rune('0'+i/26))
	}
	p := newPickList(items, nil, true)
	for range 25 {
		p.key(KeyMsg("down"))
	}
	lines := p.view(widget.DefaultStyles(), 6)
	if len(lines) != 6 || !strings.HasPrefix(ansi.Strip(lines[5]), "▶ [ ] "+items[25]) {
		t.Fatalf("view at 6 lines with the cursor on item 25:\n%s", strings.Join(lines, "\n"))
	}
}

func TestRecentLookupsOfTheProfileOnly(t *testing.T) {
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"05b5c169-826c-5127-b4be-e82e50f24f7a", "6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}
	for i, e := range []journal.Entry{
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: ids[0]},
		{Kind: journal.KindLookup, Profile: "production", Ref: ids[1]},
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: ids[2]},
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: ids[0]},
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: "not-an-id"},
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(i, err)
		}
	}
	if got := RecentLookups(j, journal.Deployment{Profile: "sandbox"}); !slices.Equal(got, []string{ids[0], ids[2]}) {
		t.Fatalf("recent on sandbox %v, want its ids newest first, once each", got)
	}
	if got := RecentLookups(j, journal.Deployment{Profile: "production"}); !slices.Equal(got, []string{ids[1]}) {
		t.Fatalf("recent on production %v", got)
	}
}

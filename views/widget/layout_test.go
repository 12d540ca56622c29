package widget

import (
	"strings"
	"testing"
)

func TestSplitPane(t *testing.T) {
	tests := []struct {
		width, height int
		want          Split
	}{
		{120, 36, Split{Placement: PlaceBottom, Main: Size{120, 23}, Detail: Size{120, 12}}},
		{80, 24, Split{Placement: PlaceBottom, Main: Size{80, 15}, Detail: Size{80, 8}}},
		{139, 36, Split{Placement: PlaceBottom, Main: Size{139, 23}, Detail: Size{139, 12}}},
		{140, 36, Split{Placement: PlaceSide, Main: Size{83, 36}, Detail: Size{56, 36}}},
		{300, 50, Split{Placement: PlaceSide, Main: Size{219, 50}, Detail: Size{80, 50}}},
		{80, 9, Split{Placement: PlaceBottom, Main: Size{80, 9}}}, // no room for a pane
	}
	for _, tt := range tests {
		got := SplitPane(tt.width, tt.height)
		if got.Placement != tt.want.Placement || got.Main != tt.want.Main || got.Detail != tt.want.Detail {
			t.Errorf("SplitPane(%d, %d) = %+v, want %+v", tt.width, tt.height, got, tt.want)
		}
	}
}

func TestSplitJoin(t *testing.T) {
	main := "table line 1\na much longer table line that will not fit beside the pane at all, no"
	detail := "ID  1\nAmount  5"
	for _, size := range [][2]int{{150, 10}, {80, 24}, {80, 6}} {
		s := SplitPane(size[0], size[1])
		view := s.Join(main, detail)
		checkFits(t, view, size[0], size[1])
		if got := strings.Count(view, "\n") + 1; got != size[1] {
			t.Errorf("%dx%d: %d lines, want %d", size[0], size[1], got, size[1])
		}
		if s.Detail.Height > 0 && !strings.Contains(view, "Amount  5") {
			t.Errorf("%dx%d: detail missing:\n%s", size[0], size[1], view)
		}
	}
	side := SplitPane(150, 3).Join("a\nb", "x\ny\nz")
	if lines := strings.Split(side, "\n"); !strings.HasSuffix(lines[0], "│x") || !strings.HasSuffix(lines[2], "│z") {
		t.Errorf("side by side:\n%s", side)
	}
}

// At 200 columns the table gets the width its cells need before the side
// pane takes the rest; the pane never gets narrower than 40.
func TestSplitPaneForGivesTheTableItsWidth(t *testing.T) {
	if s := SplitPaneFor(200, 30, 150); s.Placement != PlaceSide || s.Main.Width != 150 || s.Detail.Width != 49 {
		t.Errorf("a table of 150 at 200 columns: main %d, pane %d", s.Main.Width, s.Detail.Width)
	}
	if s := SplitPaneFor(200, 30, 190); s.Detail.Width != minSidePane || s.Main.Width != 200-minSidePane-1 {
		t.Errorf("a table wider than the room: main %d, pane %d", s.Main.Width, s.Detail.Width)
	}
	if a, b := SplitPaneFor(200, 30, 0), SplitPane(200, 30); a.Main != b.Main || a.Detail != b.Detail {
		t.Errorf("no natural width: %+v, want SplitPane's %+v", a, b)
	}
}

// TestFit: a view comes out exactly height lines of at most width cells,
// styled text measured without its escapes, a wide rune never split.
func TestFit(t *testing.T) {
	styled := "\x1b[1mbold words here\x1b[0m"
	tests := []struct {
		name, in      string
		width, height int
		want          string
	}{
		{"cut and padded", "a long first line\nb\nc\nd", 6, 3, "a lon…\nb\nc"},
		{"padded with lines", "a", 4, 3, "a\n\n"},
		{"fits as it is", "abcd\nef", 4, 2, "abcd\nef"},
		{"no room", "a\nb", 4, 0, ""},
		{"wide runes", "日本語の文", 6, 1, "日本…"},
		{"wide rune at the cut", "日本語の文", 5, 1, "日本…"},
	}
	for _, tt := range tests {
		if got := Fit(tt.in, tt.width, tt.height); got != tt.want {
			t.Errorf("%s: Fit(%q, %d, %d) = %q, want %q", tt.name, tt.in, tt.width, tt.height, got, tt.want)
		}
	}
	got := Fit(styled, 10, 1)
	if displayWidth(got) > 10 || !strings.HasPrefix(got, "\x1b[1mbold") || !strings.Contains(got, "…") {
		t.Errorf("styled line cut to 10 cells: %q (width %d)", got, displayWidth(got))
	}
	if got := Fit(styled, 40, 1); got != styled {
		t.Errorf("a styled line that fits changed: %q", got)
	}
}

package widget

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func numbered(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d", i+1)
	}
	return lines
}

// scroll presses keys on s by name.
func scroll(s *Scroll, keys ...string) {
	for _, k := range keys {
		s.Key(keyMsg(k))
	}
}

func TestScrollFits(t *testing.T) {
	var s Scroll
	s.SetSize(40, 5)
	s.SetLines(numbered(5))
	scroll(&s, "down", "pgdown", "end")
	if got := s.View(); len(got) != 5 || got[0] != "line 1" || got[4] != "line 5" {
		t.Errorf("lines that fit are all shown, unmoved: %q", got)
	}
}

func TestScrollWindow(t *testing.T) {
	var s Scroll
	s.SetSize(60, 5)
	s.SetLines(numbered(20))

	got := s.View()
	if len(got) != 5 || got[0] != "line 1" || got[3] != "line 4" {
		t.Fatalf("first window: %q", got)
	}
	if !strings.Contains(got[4], "lines 1–4 of 20") || !strings.Contains(got[4], "16 more") {
		t.Errorf("status row: %q", got[4])
	}

	scroll(&s, "down", "down")
	if got := s.View(); got[0] != "line 3" || s.Below() != 14 {
		t.Errorf("two down: first %q, %d below", got[0], s.Below())
	}
	scroll(&s, "pgdown", "pgdown", "pgdown", "pgdown", "pgdown")
	got = s.View()
	if got[3] != "line 20" || s.Below() != 0 || !strings.Contains(got[4], "lines 17–20 of 20") {
		t.Errorf("paged past the end: %q", got)
	}
	scroll(&s, "pgup")
	if s.Top() != 12 {
		t.Errorf("pgup moved to %d, want 12", s.Top())
	}
	scroll(&s, "home")
	if s.Top() != 0 {
		t.Errorf("home moved to %d", s.Top())
	}
	scroll(&s, "end", "up")
	if s.Top() != 15 {
		t.Errorf("end then up: %d, want 15", s.Top())
	}
}

func TestScrollKeepsPositionWhereItFits(t *testing.T) {
	var s Scroll
	s.SetSize(60, 5)
	s.SetLines(numbered(20))
	scroll(&s, "end")
	s.SetLines(numbered(8)) // the body got shorter (a wider terminal)
	if s.Top() != 4 || s.Below() != 0 {
		t.Errorf("after shrinking: top %d, %d below", s.Top(), s.Below())
	}
	s.SetSize(60, 30)
	if s.Top() != 0 || len(s.View()) != 8 {
		t.Errorf("a taller window shows all: top %d, %d rows", s.Top(), len(s.View()))
	}
}

func TestScrollOnlyScrollingKeys(t *testing.T) {
	var s Scroll
	s.SetSize(60, 5)
	s.SetLines(numbered(20))
	for _, k := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("y")}, {Type: tea.KeyEnter}, {Type: tea.KeyTab}} {
		if s.Key(k) {
			t.Errorf("%q is the question's, not the scroll's", k.String())
		}
	}
}

func TestScrollStatusFitsNarrow(t *testing.T) {
	var s Scroll
	s.SetSize(12, 3)
	s.SetLines(numbered(20))
	got := s.View()
	if displayWidth(got[2]) > 12 {
		t.Errorf("status row %q is wider than 12", got[2])
	}
}

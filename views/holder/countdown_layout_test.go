package holder

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"allot/core/session"
	"allot/internal/clock"
	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// TestCountdownWholeAtEverySize: the countdown reads whole at every size,
// beside the id where it fits, else on a line of its own under it, cut
// only between words; the screen keeps to its size. At 80 and 60
// columns it was cut mid-word beside the id ("next unlock in 29d 14h:
// 5%,…").
func TestCountdownWholeAtEverySize(t *testing.T) {
	const id = "05b5c169-826c-5127-b4be-e82e50f24f7a"
	const want = "next unlock in 22h: 25%, 1,000.00 MRD"
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, size := range [][2]int{{200, 60}, {120, 36}, {80, 24}, {60, 20}, {40, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			fake := clock.NewFake(t0)
			ctx := &views.Context{Session: &session.Session{}, Now: fake.Now, Clock: fake, Styles: widget.DefaultStyles()}
			a := NewAllocation(ctx).(*allocation)
			d := viewstest.NewDriver(t, a, size[0], size[1])
			a.seq, a.looking = 7, id
			a.input.SetValue(id)
			d.Run(a.Update(views.Loaded[lookedUp]{Seq: 7, Value: lookedUp{v: quarters(t, t0), unit: "MRD"}}))
			view := ansi.Strip(a.View())
			lines := strings.Split(view, "\n")
			if len(lines) > size[1] {
				t.Errorf("%d lines in %d", len(lines), size[1])
			}
			for _, l := range lines {
				if lipgloss.Width(l) > size[0] {
					t.Errorf("a line of %d cells in %d: %q", lipgloss.Width(l), size[0], l)
				}
			}
			if got := strings.Join(strings.Fields(view), " "); !strings.Contains(got, want) {
				t.Errorf("the countdown does not read whole (%q):\n%s", want, view)
			}
			if size[0] >= 60 && !strings.Contains(lines[0], id) { // narrower, the field scrolls
				t.Errorf("the id's line is %q", lines[0])
			}
		})
	}
}

package schedule

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/viewstest"
)

// TestAddPieceKeepsTheSum: ctrl+n on a schedule whose portions sum to 1
// adds a piece of portion 0, not 0.5: the sum stays right.
func TestAddPieceKeepsTheSum(t *testing.T) {
	d := newDriver(t, New(viewstest.Sandbox(t)), 120, 60)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	d.Keys("ctrl+n")
	if len(s.pieces) != 2 || s.pieces[1].portion.Value() != "0" {
		t.Fatalf("%d pieces, the new one's portion %q", len(s.pieces), s.pieces[len(s.pieces)-1].portion.Value())
	}
	if v := ansi.Strip(s.View()); !strings.Contains(v, "✓ sum of portions 1 of 1") {
		t.Errorf("the sum broke:\n%s", v)
	}
}

// TestChartCaptionOverOneHundred: portions summing past 1 are said to,
// not drawn as "Unlocked: 150%" beside a chart that stops at 100%.
func TestChartCaptionOverOneHundred(t *testing.T) {
	d := newDriver(t, New(viewstest.Sandbox(t)), 120, 60)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	setField(d, "Piece 1 portion", "1.25")
	v := ansi.Strip(s.View())
	if strings.Contains(v, "Unlocked: 150%") || !strings.Contains(v, "The portions sum to 150%") {
		t.Errorf("caption for a sum of 1.5:\n%s", v)
	}
}

var chartDate = regexp.MustCompile(`\d{4}-\d\d-\d\d`)

// TestChartAllAtTheStart: with everything unlocked at month 0 the chart's
// axis still runs forward, from the start to a later date.
func TestChartAllAtTheStart(t *testing.T) {
	d := newDriver(t, New(viewstest.Sandbox(t)), 120, 60)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	setField(d, "Unlock at start", "1")
	setField(d, "Piece 1 portion", "0")
	lines := s.chartLines(60, 12)
	axis := ansi.Strip(lines[len(lines)-1])
	now, date := strings.Index(axis, "now"), chartDate.FindStringIndex(axis)
	if now < 0 || date == nil || date[0] < now || chartDate.FindString(axis) <= s.ctx.Now().Format("2006-01-02") {
		t.Errorf("the axis reads %q, not from now to a later date:\n%s", axis, ansi.Strip(strings.Join(lines, "\n")))
	}
}

package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestDetailHashWrapsInEqualParts: a hash a column too long for the pane
// is cut in two equal parts, not a line and one character under it.
func TestDetailHashWrapsInEqualParts(t *testing.T) {
	hash := "0xf33a7b57603e4a6ea8b42b8ce532196504e9c65e74dc87ef3dae81643b6c5dbb"
	d := NewDetail()
	d.SetSize(80, 10)
	d.SetFields([]Field{{Label: "Transaction", Value: hash}, {Label: "Confirmations", Value: "1"}})
	lines := strings.Split(ansi.Strip(d.View()), "\n")
	first, second := strings.TrimSpace(strings.TrimPrefix(lines[0], "Transaction")), strings.TrimSpace(lines[1])
	if first+second != hash || len(first) != 33 || len(second) != 33 {
		t.Errorf("the hash is laid out as %q / %q", first, second)
	}
}

// TestDetailNeverCutsALabel: at 60 columns a pool's details say "Stake
// withdrawal delay" whole (was "Stake withdrawal de…" beside empty
// space), its value beside it: the label column grows while every value
// fits beside it. Narrower, a label longer than the column stands on its
// own line, its value under it.
func TestDetailNeverCutsALabel(t *testing.T) {
	d := NewDetail()
	d.SetFields([]Field{
		{Label: "Name", Value: "Season 8 · 30-day Flex"},
		{Label: "ID", Value: "2f167346-c4a2-5875-b293-b28c60e376e5"},
		{Label: "Minimum stake length", Value: "30d"},
		{Label: "Stake withdrawal delay", Value: "1d"},
		{Label: "Reward withdrawal delay", Value: "0s"},
	})
	d.SetSize(60, 20)
	view := ansi.Strip(d.View())
	checkFits(t, view, 60, 20)
	for _, label := range []string{"Stake withdrawal delay", "Reward withdrawal delay", "Minimum stake length"} {
		if !strings.Contains(view, label) {
			t.Errorf("the label %q is cut:\n%s", label, view)
		}
	}
	if !strings.Contains(view, "1d") || !strings.Contains(view, "2f167346-c4a2-5875-b293-b28c60e376e5") {
		t.Errorf("a value is lost:\n%s", view)
	}
	if !strings.Contains(view, "Stake withdrawal delay  1d") || !strings.Contains(view, "Reward withdrawal delay 0s") {
		t.Errorf("a delay's value is not beside its label:\n%s", view)
	}
	d.SetSize(50, 20)
	view = ansi.Strip(d.View())
	checkFits(t, view, 50, 20)
	if !strings.Contains(view, "Reward withdrawal delay "+strings.Repeat(" ", 50-23-1)+"\n") {
		t.Errorf("at 50 columns the long label is not on its own line:\n%s", view)
	}
}

// TestDetailShortensAUUID: a UUID too long for the value column is
// shortened in the middle, never cut at a dash into what reads as two ids.
func TestDetailShortensAUUID(t *testing.T) {
	const id = "2f167346-c4a2-5875-b293-b28c60e376e5"
	d := NewDetail()
	d.SetFields([]Field{{Label: "Allocation", Value: id}, {Label: "Contract", Value: "Meridian vesting"}})
	d.SetSize(40, 10)
	view := ansi.Strip(d.View())
	checkFits(t, view, 40, 10)
	lines := strings.Split(view, "\n")
	got := strings.TrimSpace(strings.TrimPrefix(lines[0], "Allocation"))
	if !strings.Contains(got, "…") || !strings.HasPrefix(id, strings.Split(got, "…")[0]) || !strings.HasSuffix(id, strings.Split(got, "…")[1]) {
		t.Errorf("the id is shown as %q", got)
	}
	if strings.HasPrefix(strings.TrimSpace(lines[1]), "b293") || strings.HasPrefix(strings.TrimSpace(lines[1]), "-") {
		t.Errorf("the id goes on under it:\n%s", view)
	}
}

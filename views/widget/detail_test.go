package widget

import (
	"strings"
	"testing"
)

func TestDetailWrapsAndScrolls(t *testing.T) {
	d := NewDetail()
	d.SetSize(40, 5)
	d.SetFields([]Field{
		{Label: "ID", Value: "3f2a1b4c-0000-4000-8000-000000000001"},
		{Label: "Wallet", Value: "0x80cdf776bb7ff2ae94d85c43a78e9e0411abc80c"},
		{Label: "Amount", Value: FormatAmount("1234567.5")},
		{Label: "Note", Value: "a long note that wraps across several lines of the pane"},
	})
	want := "" +
		// A UUID too long for the pane is shortened in the middle.
		"ID      3f2a1b4c-0000-40…00-000000000001\n" +
		// An address too long for the pane is cut in equal parts.
		"Wallet  0x80cdf776bb7ff2ae94d\n" +
		"        85c43a78e9e0411abc80c\n" +
		"Amount  1,234,567.5\n" +
		"K/J scroll · 1–4 of 6"
	if got := d.View(); got != want {
		t.Fatalf("view:\n%s\nwant:\n%s", got, want)
	}
	for range 5 {
		d.Update(keyMsg("J"))
	}
	view := d.View()
	if !strings.HasPrefix(view, "        85c43a78e9e0411abc80c") || !strings.Contains(view, "several lines of the pane") {
		t.Errorf("scrolled to the end:\n%s", view)
	}
	if !strings.HasSuffix(view, "3–6 of 6") {
		t.Errorf("indicator after scrolling:\n%s", view)
	}
	d.Update(keyMsg("K"))
	if !strings.HasSuffix(d.View(), "2–5 of 6") {
		t.Errorf("scroll up:\n%s", d.View())
	}
	if len(d.ShortHelp()) != 2 {
		t.Error("scroll keys belong in the help while there is something to scroll")
	}
}

func TestDetailFitsAnySize(t *testing.T) {
	fields := []Field{
		{Label: "A very long label indeed", Value: "x"},
		{Label: "Body", Value: "line one\nline two\x1b]52;c;ZXZpbA==\a\twith tab"},
		{Label: "日本語", Value: "日本語のテキストがここに長く続きます"},
	}
	for _, size := range [][2]int{{80, 20}, {40, 4}, {12, 10}, {3, 2}} {
		d := NewDetail()
		d.SetFields(fields)
		d.SetSize(size[0], size[1])
		view := d.View()
		checkFits(t, view, size[0], size[1])
		if got := strings.Count(view, "\n") + 1; got != size[1] {
			t.Errorf("%dx%d: %d lines, want exactly the height", size[0], size[1], got)
		}
		if strings.ContainsAny(view, "\x1b\a\t") {
			t.Errorf("%dx%d: unsanitized value:\n%q", size[0], size[1], view)
		}
	}
	d := NewDetail()
	d.SetSize(80, 20)
	d.SetFields(fields[:1])
	if d.ShortHelp() != nil {
		t.Error("nothing to scroll, no scroll keys in the help")
	}
}

package app

import (
	"strings"
	"testing"
)

// TestDetailsWithNoErrorSaySo: E with no error to detail says so, rather
// than nothing at all, whole at 60 columns, the smallest the dashboard
// lays out ("… while it is on the…" was cut).
func TestDetailsWithNoErrorSaySo(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("E").wait("no error to show")
	f.quit()
	const want = "no error to show: E details the one on the status line"
	view := drive(t, shared.Session(t), 60, 20, step{keys: "E", want: want})
	if !strings.Contains(view, want) {
		t.Errorf("want %q whole at 60 columns:\n%s", want, view)
	}
}

package app

import "testing"

// TestDetailsWithNoErrorSaySo: E with no error to detail says so, rather
// than nothing at all.
func TestDetailsWithNoErrorSaySo(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("E").wait("no error to show")
	f.quit()
}

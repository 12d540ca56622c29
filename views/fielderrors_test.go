package views

import (
	"strings"
	"testing"

	"allot/views/widget"
)

// TestUnmatchedBounded: a thousand errors no field shows, each of a
// megabyte, say three of them cut and how many more, in one line.
func TestUnmatchedBounded(t *testing.T) {
	long := strings.Repeat("é\x1b[31m", 1<<17)
	errs := make([]widget.PathError, 1000)
	for i := range errs {
		errs[i] = widget.PathError{Path: "x", Message: long}
	}
	got := Unmatched(errs)
	if len(got) > 2000 || !strings.HasSuffix(got, "; 997 more") || strings.ContainsAny(got, "\x1b\n") {
		t.Errorf("Unmatched = %d bytes, ends %q", len(got), got[max(len(got)-20, 0):])
	}
	if got := Unmatched([]widget.PathError{{Path: "a", Message: "bad"}, {Message: "worse"}}); got != "a: bad; worse" {
		t.Errorf("Unmatched = %q", got)
	}
}

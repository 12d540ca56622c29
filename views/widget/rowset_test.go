package widget

import (
	"slices"
	"testing"
)

func ints(from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// TestRowSetAppend: appends across chunk boundaries keep every row in
// order; an older set and a set branched from it keep their own rows; the
// caller's slice is never written.
func TestRowSetAppend(t *testing.T) {
	mine := make([]int, 10, 100)
	copy(mine, ints(0, 10))
	base := RowsOf(mine)
	s := base
	for i := 10; i < 3*chunkSize+7; i += 1000 {
		s = s.Append(ints(i, min(i+1000, 3*chunkSize+7)))
	}
	if got := s.Slice(); !slices.Equal(got, ints(0, 3*chunkSize+7)) {
		t.Fatalf("%d rows after the appends, not 0..%d in order", len(got), 3*chunkSize+6)
	}
	if mine[:11][10] != 0 {
		t.Error("Append wrote into the spare capacity of the slice given to RowsOf")
	}
	if base.Len() != 10 || !slices.Equal(base.Slice(), ints(0, 10)) {
		t.Errorf("the first set changed: %v", base.Slice())
	}
	// Two sets appended to from the same one: neither sees the other's.
	a := s.Append([]int{-1, -2})
	b := s.Append([]int{-3})
	a = a.Append([]int{-4})
	if got := a.Slice()[s.Len():]; !slices.Equal(got, []int{-1, -2, -4}) {
		t.Errorf("branch a ends %v", got)
	}
	if got := b.Slice()[s.Len():]; !slices.Equal(got, []int{-3}) {
		t.Errorf("branch b ends %v", got)
	}
	if *s.At(s.Len() - 1) != 3*chunkSize+6 || *a.At(chunkSize) != chunkSize {
		t.Error("At does not find the rows")
	}
}

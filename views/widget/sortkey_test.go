package widget

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeyAsStableSort: a column with a SortKey sorts as the stable
// sort of its SortRef, both ways, with ties in the keys that are exact
// and ties that are not (told apart by SortRef).
func TestSortKeyAsStableSort(t *testing.T) {
	type row struct{ a, b int }
	rnd := rand.New(rand.NewPCG(1, 2))
	rows := make([]row, 5000)
	for i := range rows {
		rows[i] = row{rnd.IntN(50), rnd.IntN(3)}
	}
	ref := func(x, y *row) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	}
	for _, exactKey := range []bool{true, false} {
		cols := []Column[row]{{Title: "A", SortRef: ref, SortKey: func(r *row) ([3]uint64, bool) {
			if exactKey {
				return [3]uint64{uint64(r.a), uint64(r.b)}, true
			}
			return [3]uint64{uint64(r.a) / 4}, false // coarser: ties the compare tells apart
		}}}
		plain := []Column[row]{{Title: "A", SortRef: ref}}
		for _, desc := range []bool{false, true} {
			got := sortRows(RowsOf(rows), cols, sortKey{col: 0, desc: desc})
			want := sortRows(RowsOf(rows), plain, sortKey{col: 0, desc: desc})
			if !slices.Equal(got, want) {
				t.Errorf("exact %v, desc %v: keyed sort differs from the stable sort", exactKey, desc)
			}
		}
	}
}

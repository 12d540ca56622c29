package api

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestPoolByRef: the one lookup behind the dashboard's :stakes NAME and
// the command line's --pool NAME: an id, else the exact name, else the one
// name equal but for case; none, or a name more than one pool fits, is a
// NoPoolError whose text is one printable line that lists at most
// MaxNamedPools ids.
func TestPoolByRef(t *testing.T) {
	const (
		idA = "6a0f3b1e-0000-4000-8000-00000000000a"
		idB = "6a0f3b1e-0000-4000-8000-00000000000b"
		idC = "6a0f3b1e-0000-4000-8000-00000000000c"
	)
	whale := Pool{ID: idA, Name: "Whale pool"}
	twinUpper := Pool{ID: idB, Name: "TWIN"}
	twinTitle := Pool{ID: idC, Name: "Twin"}
	pools := []Pool{whale, twinUpper, twinTitle}
	var many []Pool
	for i := range 8 {
		many = append(many, Pool{ID: fmt.Sprintf("6a0f3b1e-0000-4000-8000-%012d", i), Name: "same"})
	}
	hostile := []Pool{
		{ID: "id\x1b]52;c;eA==\x07", Name: "evil"},
		{ID: "id\u202e2", Name: "EVIL"},
	}

	for _, tc := range []struct {
		name   string
		pools  []Pool
		ref    string
		want   string   // the pool's id, when one is found
		ids    []string // the ids listed, when the name is ambiguous
		errHas []string
	}{
		{name: "id", pools: pools, ref: idC, want: idC},
		{name: "exact name", pools: pools, ref: "Whale pool", want: idA},
		{name: "name but for case", pools: pools, ref: "whale POOL", want: idA},
		{name: "exact name wins over case", pools: pools, ref: "TWIN", want: idB},
		{name: "ambiguous but for case", pools: pools, ref: "twin", ids: []string{idB, idC},
			errHas: []string{`"twin" names more than one pool of this token: open one by its id: ` + idB + ", " + idC}},
		{name: "none", pools: pools, ref: "Whale poo", errHas: []string{`no pool "Whale poo" in this token`}},
		{name: "no pools", ref: "Whale pool", errHas: []string{`no pool "Whale pool"`}},
		{name: "bounded", pools: many, ref: "SAME", ids: idsOf(many[:MaxNamedPools]),
			errHas: []string{many[4].ID + ", …"}},
		{name: "hostile ref", pools: pools, ref: "x\x1b[2J\x07" + strings.Repeat("y", 500), errHas: []string{"no pool"}},
		{name: "hostile ids", pools: hostile, ref: "Evil", ids: []string{hostile[0].ID, hostile[1].ID}, errHas: []string{"more than one pool"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PoolByRef(tc.pools, tc.ref)
			if tc.want != "" {
				if err != nil || p.ID != tc.want {
					t.Fatalf("pool %+v, err %v; want %s", p, err, tc.want)
				}
				return
			}
			var none *NoPoolError
			if !errors.As(err, &none) || p.ID != "" {
				t.Fatalf("pool %+v, err %v; want a NoPoolError", p, err)
			}
			if none.Ref != tc.ref || strings.Join(none.IDs, " ") != strings.Join(tc.ids, " ") {
				t.Errorf("ref %q, ids %q; want %q", none.Ref, none.IDs, tc.ids)
			}
			text := err.Error()
			for _, want := range tc.errHas {
				if !strings.Contains(text, want) {
					t.Errorf("%q does not say %q", text, want)
				}
			}
			if strings.ContainsAny(text, "\x1b\x07\n\u202e") || len(text) > 400 {
				t.Errorf("the error is not one bounded printable line: %q", text)
			}
		})
	}
}

func idsOf(pools []Pool) []string {
	ids := make([]string, len(pools))
	for i, p := range pools {
		ids[i] = p.ID
	}
	return ids
}

// TestPoolByRefSkipsPoolsWithoutID: a pool the service lists with no id
// cannot be read or staked in; an empty ref (or its name) must not pick
// it, which would ask for the stakes of pool "".
func TestPoolByRefSkipsPoolsWithoutID(t *testing.T) {
	pools := []Pool{{ID: "", Name: "Whale pool"}, {ID: "p2", Name: "Shrimp pool"}}
	for _, ref := range []string{"", "Whale pool", "whale POOL"} {
		p, err := PoolByRef(pools, ref)
		var none *NoPoolError
		if !errors.As(err, &none) {
			t.Errorf("PoolByRef(%q) = %+v, %v; want a NoPoolError", ref, p, err)
		}
	}
	if p, err := PoolByRef(pools, "shrimp pool"); err != nil || p.ID != "p2" {
		t.Errorf("shrimp pool: %+v, %v", p, err)
	}
}

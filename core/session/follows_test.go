package session

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"allot/core/journal"
)

// TestFollowsAreOneList: the profile's allocations come first, then those
// followed with f, each once; the profile's cannot be unfollowed here;
// without a journal nothing can be followed, and the profile's still are.
func TestFollowsAreOneList(t *testing.T) {
	const (
		listed = "3f1a2b4c-0000-4000-8000-000000000001"
		other  = "3f1a2b4c-0000-4000-8000-000000000002"
	)
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := journal.Deployment{BaseURL: "http://127.0.0.1:1", ChainID: 31337}
	f := Follows{profile: []string{listed}, j: j, d: d}
	for _, id := range []string{other, listed} {
		if err := f.Set(id, true); err != nil {
			t.Fatal(err)
		}
	}
	if ids, err := f.IDs(); err != nil || !slices.Equal(ids, []string{listed, other}) {
		t.Fatalf("followed %v, %v; want the profile's, then the other, each once", ids, err)
	}
	if err := f.Set(listed, false); err == nil || !strings.Contains(err.Error(), "remove it there") {
		t.Fatalf("unfollowing the profile's allocation: %v", err)
	}
	none := Follows{profile: []string{listed}, d: d}
	if err := none.Set(other, true); !errors.Is(err, ErrNoFollows) {
		t.Fatalf("following without a journal: %v", err)
	}
	if ids, _ := none.IDs(); !slices.Equal(ids, []string{listed}) {
		t.Fatalf("without a journal, followed %v", ids)
	}
}

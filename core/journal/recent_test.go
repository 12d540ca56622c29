package journal

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRecentLookups: the allocations looked up on a deployment, newest
// first, once each, at most max; another deployment's ids and refs that
// are not ids are left out, and no journal offers none.
func TestRecentLookups(t *testing.T) {
	j, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"05b5c169-826c-5127-b4be-e82e50f24f7a", "6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}
	local := Deployment{Profile: "sandbox", BaseURL: "http://127.0.0.1:1/", ChainID: 31337}
	for i, e := range []Entry{
		{Kind: KindLookup, Profile: "sandbox", Ref: ids[0]}, // before entries named their deployment
		{Kind: KindLookup, Profile: "production", Ref: ids[1]},
		local.Stamp(Entry{Kind: KindLookup, Ref: ids[2]}),
		{Kind: KindLookup, Profile: "sandbox", BaseURL: "http://other", ChainID: 1, Ref: ids[1]}, // a namesake profile
		local.Stamp(Entry{Kind: KindLookup, Ref: ids[0]}),
		local.Stamp(Entry{Kind: KindLookup, Ref: "not-an-id"}),
		local.Stamp(Entry{Kind: KindRequest, Ref: ids[1]}),
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(i, err)
		}
	}
	if got := j.RecentLookups(local, 8); !slices.Equal(got, []string{ids[0], ids[2]}) {
		t.Errorf("recent on the local sandbox %v, want its ids newest first, once each", got)
	}
	if got := j.RecentLookups(local, 1); !slices.Equal(got, []string{ids[0]}) {
		t.Errorf("recent, at most 1: %v", got)
	}
	if got := j.RecentLookups(Deployment{Profile: "production"}, 8); !slices.Equal(got, []string{ids[1]}) {
		t.Errorf("recent on production %v", got)
	}
	var none *Journal
	if got := none.RecentLookups(local, 8); got != nil {
		t.Errorf("no journal offers %v", got)
	}
}

// TestLookChangesNothing: a journal looked at where there is none offers
// nothing and makes no folder; one that exists is read, its modes left as
// they are.
func TestLookChangesNothing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "state")
	j := Look(missing)
	if got := j.RecentLookups(Deployment{Profile: "p"}, 8); got != nil {
		t.Errorf("no journal offers %v", got)
	}
	if ids, err := j.Followed(Deployment{Profile: "p"}); ids != nil || err != nil {
		t.Errorf("no follows file: %v, %v", ids, err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("looking made %s: %v", missing, err)
	}

	dir := t.TempDir()
	d := Deployment{Profile: "p", BaseURL: "https://api.example.com", ChainID: 1}
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := "6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
	if err := w.Append(d.Stamp(Entry{Kind: KindLookup, Ref: id})); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Look(dir).RecentLookups(d, 8); !slices.Equal(got, []string{id}) {
		t.Errorf("recent %v, want [%s]", got, id)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("looking changed the folder's mode: %v %v", info.Mode(), err)
	}
}

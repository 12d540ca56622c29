package views

import (
	"slices"
	"testing"

	"allot/internal/journal"
)

func TestRecentLookupsOfTheProfileOnly(t *testing.T) {
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"05b5c169-826c-5127-b4be-e82e50f24f7a", "6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}
	for i, e := range []journal.Entry{
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: ids[0]},
		{Kind: journal.KindLookup, Profile: "production", Ref: ids[1]},
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: ids[2]},
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: ids[0]},
		{Kind: journal.KindLookup, Profile: "sandbox", Ref: "not-an-id"},
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(i, err)
		}
	}
	if got := RecentLookups(j, journal.Deployment{Profile: "sandbox"}); !slices.Equal(got, []string{ids[0], ids[2]}) {
		t.Fatalf("recent on sandbox %v, want its ids newest first, once each", got)
	}
	if got := RecentLookups(j, journal.Deployment{Profile: "production"}); !slices.Equal(got, []string{ids[1]}) {
		t.Fatalf("recent on production %v", got)
	}
}

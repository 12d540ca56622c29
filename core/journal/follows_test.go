package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func followID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

// TestFollowed: follows are kept per deployment, in order, once each,
// survive a reopen, and are bounded; a damaged file follows none, says
// why, and is set aside by the next follow rather than stopping it.
func TestFollowed(t *testing.T) {
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	prod := Deployment{Profile: "prod", BaseURL: "https://api.example/", ChainID: 1}
	other := Deployment{Profile: "prod", BaseURL: "https://api.example", ChainID: 5}
	for _, id := range []string{followID(1), followID(2), followID(1)} {
		if err := j.SetFollowed(prod, id, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.SetFollowed(other, followID(3), true); err != nil {
		t.Fatal(err)
	}
	if err := j.SetFollowed(prod, "not-an-id", true); err == nil {
		t.Error("followed a ref that is no allocation id")
	}
	again, _ := Open(dir)
	renamed := Deployment{Profile: "renamed", BaseURL: "https://api.example", ChainID: 1}
	if got, err := again.Followed(renamed); err != nil || !slices.Equal(got, []string{followID(1), followID(2)}) {
		t.Errorf("followed on prod = %q, %v", got, err)
	}
	if err := again.SetFollowed(prod, followID(1), false); err != nil {
		t.Fatal(err)
	}
	if got, _ := again.Followed(prod); !slices.Equal(got, []string{followID(2)}) {
		t.Errorf("after unfollowing = %q", got)
	}
	if got, _ := again.Followed(other); !slices.Equal(got, []string{followID(3)}) {
		t.Errorf("on the other chain = %q", got)
	}

	for i := 10; i < 10+MaxFollowed-1; i++ {
		if err := j.SetFollowed(prod, followID(i), true); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.SetFollowed(prod, followID(999), true); err != ErrTooManyFollowed {
		t.Errorf("following past the bound: %v", err)
	}

	path := filepath.Join(dir, FollowsName)
	if err := os.WriteFile(path, []byte("{\"deployments\": [tor"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := j.Followed(prod); got != nil || err == nil || !strings.Contains(err.Error(), "does not read") {
		t.Errorf("a damaged file: %q, %v", got, err)
	}
	if err := j.SetFollowed(prod, followID(4), true); err != nil {
		t.Fatal(err)
	}
	if got, err := j.Followed(prod); err != nil || !slices.Equal(got, []string{followID(4)}) {
		t.Errorf("after a follow over a damaged file: %q, %v", got, err)
	}
	if _, err := os.Stat(path + ".corrupt"); err != nil {
		t.Errorf("the damaged file was not set aside: %v", err)
	}
}

// FuzzFollowed: whatever the file holds, Followed neither panics nor
// returns anything but allocation ids, at most MaxFollowed, each once.
func FuzzFollowed(f *testing.F) {
	f.Add([]byte(`{"version":1,"deployments":[{"baseUrl":"https://a","chainId":1,"ids":["00000000-0000-4000-8000-000000000001"]}]}`))
	f.Add([]byte(`{"deployments":[{"baseUrl":"https://a","chainId":1,"ids":["x","\u001b[31m"]}]}`))
	f.Add([]byte(`[`))
	f.Add([]byte(`{"deployments":[{"baseUrl":"https://a","chainId":1,"ids":["00000000-0000-4000-8000-000000000001","00000000-0000-4000-8000-000000000002","00000000-0000-4000-8000-000000000001"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, FollowsName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		j, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		ids, _ := j.Followed(Deployment{BaseURL: "https://a", ChainID: 1})
		if len(ids) > MaxFollowed {
			t.Fatalf("%d ids", len(ids))
		}
		seen := map[string]bool{}
		for _, id := range ids {
			if len(id) != 36 || seen[id] {
				t.Fatalf("followed %q", ids)
			}
			seen[id] = true
		}
	})
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreativeUploadKeepsEarlierUploads: two files of one name stored
// apart by default, each public URL serving its own bytes; --replace
// keeps the name, and without a terminal to ask on it needs --yes.
func TestCreativeUploadKeepsEarlierUploads(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	portal := s.Fixtures.PortalSlug
	upload := func(content string, extra ...string) (result, string) {
		path := filepath.Join(t.TempDir(), "logo.png")
		if err := os.WriteFile(path, append([]byte("\x89PNG\r\n\x1a\n"), content...), 0o600); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, s, nil, append([]string{"creative", "upload", path, "--portal", portal, "-o", "json"}, extra...)...)
		var out struct {
			ID, StorageKey, PublicURL, Name string
		}
		if r.code == 0 {
			decodeJSON(t, r, &out)
		}
		return r, out.PublicURL
	}
	// The sandbox's journal names each upload's storage key.
	stored := func() []string {
		var keys []string
		for _, e := range s.Applied() {
			if strings.HasPrefix(e.Operation, "_sandbox/uploads/") {
				keys = append(keys, filepath.Base(e.Operation))
			}
		}
		return keys
	}
	_, first := upload("first")
	_, second := upload("second")
	if keys := stored(); first == second || len(keys) != 2 || keys[0] == keys[1] || keys[0] == "logo.png" {
		t.Fatalf("two uploads of logo.png stored as %v, served at %s and %s", keys, first, second)
	}
	if r, _ := upload("third", "--replace"); r.code == 0 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("--replace without a terminal or --yes: exit %d, %q", r.code, r.stderr)
	}
	r, replaced := upload("fourth", "--replace", "--yes")
	if keys := stored(); r.code != 0 || !strings.HasSuffix(replaced, "/logo.png") || len(keys) != 3 || keys[2] != "logo.png" {
		t.Fatalf("--replace --yes: exit %d %q, url %s", r.code, r.stderr, replaced)
	}
}

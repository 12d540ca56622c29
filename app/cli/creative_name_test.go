package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreativeUploadNames: a file whose name the service does not store
// (a space, an accent, an emoji) is refused before anything is sent, with
// a valid name made from its own to pass as --name; --name sets the name
// it is stored and shown under, as its help says.
func TestCreativeUploadNames(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	path := filepath.Join(t.TempDir(), "été 2026 🎉.png")
	if err := os.WriteFile(path, []byte("\x89PNG\r\n\x1a\ncontent"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, s, nil, "creative", "upload", path, "--portal", s.Fixtures.PortalSlug)
	if r.code != 2 || !strings.Contains(r.stderr, "pass --name ete-2026.png") {
		t.Fatalf("a file named with an accent, a space and an emoji: exit %d, %q", r.code, r.stderr)
	}
	if len(s.Applied()) != 0 {
		t.Fatalf("refused, yet sent: %+v", s.Applied())
	}
	r = runCLI(t, s, nil, "creative", "upload", path, "--portal", s.Fixtures.PortalSlug, "--name", "ete-2026.png", "--replace", "--yes", "-o", "json")
	var out struct{ ID, StorageKey, PublicURL string }
	if r.code == 0 {
		decodeJSON(t, r, &out)
	}
	if r.code != 0 || !strings.HasSuffix(out.PublicURL, "/ete-2026.png") {
		t.Fatalf("--name ete-2026.png --replace: exit %d %q, stored %+v", r.code, r.stderr, out)
	}
	r = runCLI(t, s, nil, "creative", "upload", path, "--portal", s.Fixtures.PortalSlug, "--name", "my logo.png")
	if r.code != 2 || !strings.Contains(r.stderr, "--name my-logo.png would be") {
		t.Fatalf("--name with a space: exit %d, %q", r.code, r.stderr)
	}
}

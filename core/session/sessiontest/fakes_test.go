package sessiontest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFakeArtifactsAreBuilt fails when a fake's source, the build script or
// an artifact changed without contracts/build.sh being run again.
func TestFakeArtifactsAreBuilt(t *testing.T) {
	f, err := os.Open("contracts/build/sources.sha256")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recorded := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			sum, name, _ := strings.Cut(line, "  ")
			recorded[name] = sum
		}
	}
	want := []string{"build.sh"}
	for _, pattern := range []string{"contracts/*.sol", "contracts/build/*.json"} {
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			rel, _ := filepath.Rel("contracts", m)
			want = append(want, filepath.ToSlash(rel))
		}
	}
	var listed []string
	for name, sum := range recorded {
		listed = append(listed, name)
		data, err := os.ReadFile(filepath.Join("contracts", filepath.FromSlash(name)))
		if got := sha256.Sum256(data); err != nil || hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s changed since contracts/build.sh last ran (%v): run it and commit build/", name, err)
		}
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("build/sources.sha256 lists %v, the directory has %v: run contracts/build.sh", listed, want)
	}
}

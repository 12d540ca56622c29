package assets

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestContractArtifactsUpToDate fails when a contract source, the build
// script or an artifact changed without contracts/build.sh being run again:
// every one of them must have the hash recorded in build/sources.sha256, and
// every source and artifact must be recorded.
func TestContractArtifactsUpToDate(t *testing.T) {
	recorded := readManifest(t, "contracts/build/sources.sha256")

	want := []string{"build.sh"}
	for _, pattern := range []string{"contracts/*.sol", "contracts/build/*.json"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel("contracts", m)
			want = append(want, filepath.ToSlash(rel))
		}
	}
	slices.Sort(want)
	var listed []string
	for name := range recorded {
		listed = append(listed, name)
	}
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("build/sources.sha256 lists %v, the directory has %v: run assets/contracts/build.sh", listed, want)
	}

	for name, sum := range recorded {
		data, err := os.ReadFile(filepath.Join("contracts", filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s changed since assets/contracts/build.sh last ran: run it and commit build/", name)
		}
	}
}

func readManifest(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := scanner.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("%s: malformed line %q", path, line)
		}
		out[name] = sum
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestContract(t *testing.T) {
	for _, name := range []string{TokenContract, VesterContract, StakingContract, PostClaimVaultContract} {
		c, err := Contract(name)
		if err != nil {
			t.Fatalf("Contract(%q): %v", name, err)
		}
		var entries []map[string]any
		if err := json.Unmarshal(c.ABI, &entries); err != nil || len(entries) == 0 {
			t.Errorf("Contract(%q): ABI is not a list of entries: %v", name, err)
		}
		if len(c.Bytecode) < 100 {
			t.Errorf("Contract(%q): %d bytes of bytecode", name, len(c.Bytecode))
		}
	}
	if _, err := Contract("Missing"); err == nil {
		t.Error("Contract(\"Missing\") succeeded")
	}
}

package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion: allot --version and allot version print what the build
// info says, and -o json the same as one object; a build with no
// version control says no commit rather than a made-up one.
func TestVersion(t *testing.T) {
	t.Parallel()
	stamped := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "allot", Version: "v1.2.3"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "8155cd8aa"}, {Key: "vcs.time", Value: "2026-11-27T04:12:00Z"}, {Key: "vcs.modified", Value: "true"}}}, true
	}
	v := readVersion(stamped)
	if want := (version{Version: "v1.2.3", Commit: "8155cd8aa", CommitTime: "2026-11-27T04:12:00Z", Modified: true, Go: "go1.26.8"}); v != want {
		t.Errorf("read %+v, want %+v", v, want)
	}
	for _, want := range []string{"allot v1.2.3\n", "commit  8155cd8aa (with changes not committed)\n", "date    2026-11-27T04:12:00Z", "go      go1.26.8\n"} {
		if !strings.Contains(v.text(), want) {
			t.Errorf("the version lacks %q:\n%s", want, v.text())
		}
	}
	if got := readVersion(func() (*debug.BuildInfo, bool) { return nil, false }); got != (version{Version: "unknown"}) {
		t.Errorf("with no build info: %+v", got)
	}

	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		r := runCLI(t, nil, nil, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "allot ") || !strings.Contains(r.stdout, "go      go") {
			t.Errorf("allot %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	var got version
	decodeJSON(t, runCLI(t, nil, nil, "version", "-o", "json"), &got)
	if got.Version == "" || !strings.HasPrefix(got.Go, "go") {
		t.Errorf("version -o json: %+v", got)
	}
	if r := runCLI(t, nil, nil, "version", "extra"); r.code != ExitUsage {
		t.Errorf("version with an argument: exit %d, want %d", r.code, ExitUsage)
	}
}

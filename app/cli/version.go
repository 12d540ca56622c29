package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"
)

// versionCommand prints what was built: the module's version (a tag under
// `go install allot@vX`, "(devel)" from a checkout), the commit and its
// date, whether the tree had changes, and the Go toolchain, all read from
// the build info the Go toolchain embeds (go build, go install, go run
// alike): nothing is stamped by hand at release time.
var versionCommand = command{
	name:       "version",
	args:       "[-o json]",
	summary:    "print allot's version, commit and toolchain (also allot --version)",
	standalone: true,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		out := outputFlag(fs)
		return func(_ context.Context, args []string) error {
			if len(args) > 0 {
				return usagef("takes no arguments, got %q", args[0])
			}
			v := readVersion(debug.ReadBuildInfo)
			if *out == formatJSON {
				return writeJSON(e.Stdout, v)
			}
			_, err := fmt.Fprint(e.Stdout, v.text())
			return err
		}
	},
}

// version is what the build info says of this binary; empty where it
// says nothing (a build outside version control has no commit).
type version struct {
	Version    string `json:"version"`
	Commit     string `json:"commit"`
	CommitTime string `json:"commitTime"`
	Modified   bool   `json:"modified"`
	Go         string `json:"go"`
}

func readVersion(read func() (*debug.BuildInfo, bool)) version {
	info, ok := read()
	if !ok {
		return version{Version: "unknown"}
	}
	v := version{Version: info.Main.Version, Go: info.GoVersion}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// text is the version as people read it, one fact a line.
func (v version) text() string {
	s := "allot " + v.Version + "\n"
	if v.Commit != "" {
		modified := ""
		if v.Modified {
			modified = " (with changes not committed)"
		}
		s += "commit  " + v.Commit + modified + "\n"
	}
	if v.CommitTime != "" {
		s += "date    " + v.CommitTime + " (the commit's)\n"
	}
	if v.Go != "" {
		s += "go      " + v.Go + "\n"
	}
	return s
}

package main

import (
	"bytes"
	"encoding/json"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImportsPointDown holds the layout docs/architecture.md describes:
// imports point down only, so the core the CLI and the dashboard share
// never depends on the dashboard, screens never reach into the sandbox,
// and the wallet and the client stay free of the terminal.
func TestImportsPointDown(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages: the test reads the wrong tree", len(pkgs))
	}
	under := func(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }
	rules := []struct {
		why     string
		applies func(pkg string) bool
		refused func(imp string) bool
	}{
		{
			why:     "the shared core, the screens, the client and the wallet never import the dashboard or the commands",
			applies: func(p string) bool { return !under(p, "allot/app") && p != "allot" },
			refused: func(imp string) bool { return under(imp, "allot/app") },
		},
		{
			// core/embedded opens the embedded sandbox as a session;
			// app/cli is `allot sandbox`, the sandbox's own entry point;
			// viewstest, core/session/sessiontest and
			// core/embedded/embeddedtest open it for tests, which alone
			// import them (the next rule).
			why: "only core/embedded (and `allot sandbox` in app/cli) import the sandbox",
			applies: func(p string) bool {
				return !under(p, "allot/api/sandbox") && p != "allot/core/embedded" && p != "allot/app/cli" &&
					!testOnly(p)
			},
			refused: func(imp string) bool { return under(imp, "allot/api/sandbox") },
		},
		{
			why:     "viewstest, sessiontest and embeddedtest are for tests only (and each other)",
			applies: func(p string) bool { return !testOnly(p) },
			refused: testOnly,
		},
		{
			why: "api, wallet and the shared core know nothing of screens or of Bubble Tea",
			applies: func(p string) bool {
				return under(p, "allot/api") || under(p, "allot/wallet") || under(p, "allot/internal") || under(p, "allot/core")
			},
			refused: func(imp string) bool {
				return under(imp, "allot/views") || under(imp, "github.com/charmbracelet/bubbletea") ||
					under(imp, "github.com/charmbracelet/bubbles") || under(imp, "github.com/charmbracelet/lipgloss")
			},
		},
		{
			// internal/ is the bottom: text made safe, amounts, time, files,
			// the in-memory network. Everything may use it; it uses nothing
			// of allot's but itself.
			why:     "internal/ is the bottom layer: it imports nothing of allot outside internal/",
			applies: func(p string) bool { return under(p, "allot/internal") },
			refused: func(imp string) bool { return under(imp, "allot") && !under(imp, "allot/internal") },
		},
		{
			// core/ (the session, the journal, acts, the registries of
			// writes and rows) is built on the client and the wallet,
			// which never reach up into it.
			why:     "api and wallet do not import core/, which is built on them",
			applies: func(p string) bool { return under(p, "allot/api") || under(p, "allot/wallet") },
			refused: func(imp string) bool { return under(imp, "allot/core") },
		},
		{
			why:     "the widgets know nothing of the screens built on them",
			applies: func(p string) bool { return under(p, "allot/views/widget") },
			refused: func(imp string) bool { return under(imp, "allot/views") && !under(imp, "allot/views/widget") },
		},
		{
			// Screens share the kit (views) and the widgets; a family opens
			// another family's screen only where the user goes from one to
			// the other (Contracts opens the operator forms, Pools and Stakes
			// open the stake form), and reopen is the one place that knows
			// every write family. No family imports browse or reopen, so
			// each family's tests can import Transactions.
			why: "a family of screens imports the kit, not another family's screens, save the listed ways from one to the other",
			applies: func(p string) bool {
				return under(p, "allot/views") && p != "allot/views" && !under(p, "allot/views/widget")
			},
			refused: func(imp string) bool {
				return under(imp, "allot/views") && imp != "allot/views" && !under(imp, "allot/views/widget")
			},
		},
	}
	// The ways from one family to another that the dashboard offers.
	allowed := map[string][]string{
		"allot/views/browse": {"allot/views/operator", "allot/views/holder"},
		"allot/views/reopen": {"allot/views/operator", "allot/views/schedule"},
		// P on Transactions opens the Safe proposals.
		"allot/views/transactions": {"allot/views/proposals"},
		// s and c on a Safe of the accounts page propose as that Safe.
		"allot/views/holder": {"allot/views/proposals"},
	}
	for _, p := range pkgs {
		for _, r := range rules {
			if !r.applies(p.ImportPath) {
				continue
			}
			for _, imp := range p.Imports {
				if r.refused(imp) && !slices.Contains(allowed[p.ImportPath], imp) {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, r.why)
				}
			}
		}
	}
}

type goPackage struct {
	ImportPath string
	Imports    []string
}

// listPackages asks the go command for the module's packages and their
// imports (tests' imports left out: a test may reach further than its
// package).
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		gocmd = filepath.Join(build.Default.GOROOT, "bin", "go")
	}
	out, err := exec.Command(gocmd, "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p goPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestBoundariesHoldThroughEveryImport: what a package links through any
// chain of imports (go list -deps), beyond what it imports itself. The
// commands (app/cli), which scripts run, link nothing of the dashboard:
// no screen, no Bubble Tea, no lipgloss; they reach it only through the
// function main gives them. The screens link nothing of the sandbox:
// they read a session, whose embedded sandbox package embedded opens.
func TestBoundariesHoldThroughEveryImport(t *testing.T) {
	for _, rule := range []struct {
		pattern string
		refused func(dep string) bool
		why     string
	}{
		{"./app/cli", func(dep string) bool {
			return strings.HasPrefix(dep, "github.com/charmbracelet/") || dep == "allot/views" || strings.HasPrefix(dep, "allot/views/")
		}, "the commands must not depend on the dashboard"},
		{"./views/...", func(dep string) bool {
			return dep == "allot/api/sandbox" || strings.HasPrefix(dep, "allot/api/sandbox/") || dep == "allot/core/embedded"
		}, "the screens must not depend on the sandbox"},
	} {
		deps := listDeps(t, rule.pattern)
		if !slices.Contains(deps, "allot/core/session") {
			t.Fatalf("go list -deps %s does not list core/session: the test reads the wrong tree", rule.pattern)
		}
		for _, dep := range deps {
			if rule.refused(dep) {
				t.Errorf("%s links %s: %s", rule.pattern, dep, rule.why)
			}
		}
	}
}

// listDeps is go list -deps of pattern: every package its packages link.
func listDeps(t *testing.T, pattern string) []string {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		gocmd = filepath.Join(build.Default.GOROOT, "bin", "go")
	}
	out, err := exec.Command(gocmd, "list", "-deps", pattern).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pattern, err)
	}
	return strings.Fields(string(out))
}

// maxViewsFileLines bounds a screen's file: past it a screen does too
// much in one place, and is split by what it does (keys, loading, a pane).
const maxViewsFileLines = 450

// TestViewsFilesWithinBounds: no file of the screens (tests aside) is
// longer than maxViewsFileLines.
func TestViewsFilesWithinBounds(t *testing.T) {
	err := filepath.WalkDir("views", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(data, []byte("\n")); n > maxViewsFileLines {
			t.Errorf("%s has %d lines, more than %d: split it by what it does", path, n, maxViewsFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testOnly tells the packages that only tests import.
func testOnly(p string) bool {
	return p == "allot/viewstest" || p == "allot/core/session/sessiontest" || p == "allot/core/embedded/embeddedtest"
}

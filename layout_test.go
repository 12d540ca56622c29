package main

import (
	"bytes"
	"encoding/json"
	"go/build"
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
			// internal/session opens the embedded sandbox for a session;
			// app/cli is `allot sandbox`, the sandbox's own entry point;
			// views/viewstest opens it for the screens' tests, which alone
			// import it (the next rule).
			why: "only internal/session (and `allot sandbox` in app/cli) import the sandbox",
			applies: func(p string) bool {
				return !under(p, "allot/api/sandbox") && !under(p, "allot/internal/session") && p != "allot/app/cli" && p != "allot/views/viewstest"
			},
			refused: func(imp string) bool { return under(imp, "allot/api/sandbox") },
		},
		{
			why:     "views/viewstest is for tests only",
			applies: func(string) bool { return true },
			refused: func(imp string) bool { return imp == "allot/views/viewstest" },
		},
		{
			why: "api, wallet and the shared core know nothing of screens or of Bubble Tea",
			applies: func(p string) bool {
				return under(p, "allot/api") || under(p, "allot/wallet") || under(p, "allot/internal")
			},
			refused: func(imp string) bool {
				return under(imp, "allot/views") || under(imp, "github.com/charmbracelet/bubbletea") ||
					under(imp, "github.com/charmbracelet/bubbles") || under(imp, "github.com/charmbracelet/lipgloss")
			},
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
		"allot/views/reopen": {"allot/views/operator", "allot/views/schedule", "allot/views/creative", "allot/views/holder"},
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

// TestHeadlessLinksNoTerminalUI: the commands (app/cli), which scripts
// run, link nothing of the dashboard: no screen, no Bubble Tea, no
// lipgloss, through any chain of imports. The dashboard is reached only
// through the function main gives them.
func TestHeadlessLinksNoTerminalUI(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		gocmd = filepath.Join(build.Default.GOROOT, "bin", "go")
	}
	out, err := exec.Command(gocmd, "list", "-deps", "./app/cli").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "allot/internal/session") {
		t.Fatalf("go list -deps ./app/cli does not list internal/session: the test reads the wrong tree")
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/charmbracelet/") || dep == "allot/views" || strings.HasPrefix(dep, "allot/views/") {
			t.Errorf("app/cli links %s: the commands must not depend on the dashboard", dep)
		}
	}
}

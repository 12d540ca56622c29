package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The entries and operations docs/deployment.md defines.
const (
	decisions  = 19
	operations = 13
)

var (
	entryHead    = regexp.MustCompile(`(?m)^\*\*D(\d+)\.`)
	operationRow = regexp.MustCompile(`(?m)^\| (\d+) \| `)
	citedEntry   = regexp.MustCompile(`\bD(\d+)\b`)
	citedOp      = regexp.MustCompile(`\boperations? (\d+)\b`)
)

// TestDeploymentDocIndex: docs/deployment.md defines D1 to D19 once each,
// in order, and the table of the service's 13 operations, numbered.
func TestDeploymentDocIndex(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("docs", "deployment.md"))
	if err != nil {
		t.Fatal(err)
	}
	for what, found := range map[string][][]string{
		"entries D1 to D19": entryHead.FindAllStringSubmatch(string(data), -1),
		"operation rows":    operationRow.FindAllStringSubmatch(string(data), -1),
	} {
		want := decisions
		if what == "operation rows" {
			want = operations
		}
		var got []int
		for _, m := range found {
			n, _ := strconv.Atoi(m[1])
			got = append(got, n)
		}
		ok := len(got) == want
		for i := 0; ok && i < want; i++ {
			ok = got[i] == i+1
		}
		if !ok {
			t.Errorf("docs/deployment.md: %s are %v, want 1 to %d in order", what, got, want)
		}
	}
}

// TestCitationsSayWhere: every D-id and "operation N" a comment of the
// module's code cites is one docs/deployment.md defines, and a package
// that cites them says in its package doc where they are defined, or
// names the file beside each citation.
func TestCitationsSayWhere(t *testing.T) {
	fset := token.NewFileSet()
	// A directory's Go files, tests aside, are its package.
	files := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != "."):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			files[filepath.Dir(path)] = append(files[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("%d packages found: the walk missed the module", len(files))
	}
	for dir, paths := range files {
		var doc string
		var bare []string
		for _, path := range paths {
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if f.Doc != nil {
				doc += f.Doc.Text()
			}
			for _, group := range f.Comments {
				for _, c := range group.List {
					for _, line := range strings.Split(c.Text, "\n") {
						if (citedEntry.MatchString(line) || citedOp.MatchString(line)) && !strings.Contains(line, "docs/deployment.md") {
							bare = append(bare, filepath.Base(path))
						}
						for _, m := range citedEntry.FindAllStringSubmatch(line, -1) {
							if n, _ := strconv.Atoi(m[1]); n < 1 || n > decisions {
								t.Errorf("%s cites D%d: docs/deployment.md has D1 to D%d", fset.Position(c.Pos()), n, decisions)
							}
						}
						for _, m := range citedOp.FindAllStringSubmatch(line, -1) {
							if n, _ := strconv.Atoi(m[1]); n < 1 || n > operations {
								t.Errorf("%s cites operation %d: docs/deployment.md lists 1 to %d", fset.Position(c.Pos()), n, operations)
							}
						}
					}
				}
			}
		}
		if len(bare) > 0 && !strings.Contains(doc, "docs/deployment.md") {
			t.Errorf("package %s cites D-ids or operations (%s) and its doc does not say they are docs/deployment.md's", dir, strings.Join(bare[:min(len(bare), 3)], ", "))
		}
	}
}

// TestSigningRulesAreHeld: every test docs/signing.md names as holding one
// of its rules exists, and every rule names at least one.
func TestSigningRulesAreHeld(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("docs", "signing.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "## Each rule and the test that holds it")
	if !ok {
		t.Fatal("docs/signing.md has no table of its rules and their tests")
	}
	defined := map[string]bool{}
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil {
				defined[fn.Name.Name] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	testName := regexp.MustCompile("`(Test[A-Za-z0-9_]+)`")
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| Rule") {
			continue
		}
		rows++
		names := testName.FindAllStringSubmatch(line, -1)
		if len(names) == 0 {
			t.Errorf("a rule names no test: %s", line)
		}
		for _, n := range names {
			if !defined[n[1]] {
				t.Errorf("docs/signing.md names %s, which no test file defines", n[1])
			}
		}
	}
	if rows < 10 {
		t.Errorf("docs/signing.md's table has %d rules: the test reads the wrong table", rows)
	}
}

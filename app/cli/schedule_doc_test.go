package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScheduleBodyAsDocumented: the schedule body docs/commands.md shows
// is accepted as shown, its tokenId a symbol; a bare number for a months
// object ("startDelay": 12) is that object; a field beside value is still
// refused, before anything is sent.
func TestScheduleBodyAsDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "### An unlock schedule")
	_, rest, ok := strings.Cut(section, "```json\n")
	body, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/commands.md shows no JSON body")
	}
	s := sandboxSession(t)
	dir := t.TempDir()
	run := func(name, body string) result {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return runCLI(t, s, nil, "schedule", "create", "--body", path)
	}
	if r := run("documented.json", body); r.code != 0 || !strings.Contains(r.stdout, "key:") {
		t.Fatalf("the documented body: exit %d: %s", r.code, r.stderr)
	}
	bare := strings.Replace(body, `"startDelay": {"value": 12}`, `"startDelay": 12`, 1)
	if bare == body {
		t.Fatal("the documented body has no startDelay of 12 to write bare")
	}
	if r := run("bare.json", bare); r.code != 0 {
		t.Fatalf(`"startDelay": 12: exit %d: %s`, r.code, r.stderr)
	}
	sent := len(s.Applied())
	extra := strings.Replace(body, `"startDelay": {"value": 12}`, `"startDelay": {"value": 12, "unit": "MONTH"}`, 1)
	if r := run("extra.json", extra); r.code == 0 || !strings.Contains(r.stderr, "unit") {
		t.Fatalf("a field beside value: exit %d: %s", r.code, r.stderr)
	}
	if len(s.Applied()) != sent {
		t.Error("a refused body was sent")
	}
}

// TestScheduleExampleIsTheDocumentedOne: `schedule create --example`
// prints the body docs/commands.md shows (which TestScheduleBodyAsDocumented
// sends), for a newcomer who has the program and not the docs; the help
// and a missing --body name it.
func TestScheduleExampleIsTheDocumentedOne(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "### An unlock schedule")
	_, rest, _ := strings.Cut(section, "```json\n")
	body, _, _ := strings.Cut(rest, "```")
	s := shared.Session(t)
	if r := runCLI(t, s, nil, "schedule", "create", "--example"); r.code != 0 || r.stdout != body {
		t.Errorf("--example: exit %d, printed\n%s\nwant the documented body\n%s", r.code, r.stdout, body)
	}
	if r := runCLI(t, s, nil, "schedule", "create"); r.code != ExitUsage || !strings.Contains(r.stderr, "--example") {
		t.Errorf("no --body: exit %d, stderr %s", r.code, r.stderr)
	}
	if r := runCLI(t, s, nil, "help", "schedule", "create"); !strings.Contains(r.stdout+r.stderr, "--example") {
		t.Errorf("the help does not name --example:\n%s%s", r.stdout, r.stderr)
	}
}

package app

import (
	"strings"
	"testing"
)

// TestEveryCommandDispatches: each name and alias of the command table
// reaches its handler (a word it does not know is "unknown command"), and
// no two entries answer to the same word.
func TestEveryCommandDispatches(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	words := map[string]string{}
	for _, c := range commands() {
		if c.run == nil {
			t.Errorf(":%s has no handler", c.name)
			continue
		}
		for _, w := range append([]string{c.name}, c.aliases...) {
			if other, dup := words[w]; dup {
				t.Errorf(":%s answers to %q, as :%s does", c.name, w, other)
			}
			words[w] = c.name
			m := newModel(s)
			m.runCommand(w)
			if status, _ := m.shownStatus(); strings.Contains(status, "unknown command") {
				t.Errorf(":%s (of :%s) did not dispatch: %s", w, c.name, status)
			}
		}
	}
	m := newModel(s)
	m.runCommand("nope")
	if status, _ := m.shownStatus(); !strings.Contains(status, "unknown command :nope") {
		t.Errorf(":nope said %q", status)
	}
}

// TestAliasCompletesAsItsCommand: an alias's argument completes from its
// command's choices, after the alias as typed.
func TestAliasCompletesAsItsCommand(t *testing.T) {
	t.Parallel()
	c := completions{allocations: []string{"05b5c169-826c-5127-b4be-e82e50f24f7a"}}
	if line, _ := complete("allocation 05", c); line != "allocation 05b5c169-826c-5127-b4be-e82e50f24f7a" {
		t.Errorf("complete(allocation 05) = %q", line)
	}
}

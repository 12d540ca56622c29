package cli

import (
	"strings"
	"testing"
)

// TestUnknownCommandSuggests: a command name short or long by a letter
// or a word is answered with the command meant; a name like none is not.
func TestUnknownCommandSuggests(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typed, want string }{
		{"contract", `unknown command "contract": did you mean contracts?`},
		{"pool", `unknown command "pool": did you mean pools?`},
		{"transaction", `unknown command "transaction": did you mean transactions?`},
		{"schedules", `unknown command "schedules": did you mean schedule?`},
		{"nope", `unknown command "nope"` + "\n"},
	} {
		r := runCLI(t, nil, nil, c.typed)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("allot %s: exit %d, stderr %q, want %q", c.typed, r.code, r.stderr, c.want)
		}
	}
}

// TestUnknownCommandSuggestsByDistance: a longer name a letter or two
// off (a doubled, dropped or swapped letter) is answered with the command
// meant; a short one is left alone, where two letters change too much.
func TestUnknownCommandSuggestsByDistance(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typed, want string }{
		{"upcomming", `unknown command "upcomming": did you mean upcoming?`},
		{"hsitory", `unknown command "hsitory": did you mean history?`},
		{"contarcts", `unknown command "contarcts": did you mean contracts?`},
		{"clam", `unknown command "clam"` + "\n"},
	} {
		r := runCLI(t, nil, nil, c.typed)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("allot %s: exit %d, stderr %q, want %q", c.typed, r.code, r.stderr, c.want)
		}
	}
}

// TestGroupHelpIsHelp: `allot pin --help` (and -h) is the group's help
// on stdout, exit 0, as `allot help pin` is; not a usage error.
func TestGroupHelpIsHelp(t *testing.T) {
	t.Parallel()
	for _, group := range []string{"pin", "account", "tx", "creative", "schedule"} {
		for _, flag := range []string{"--help", "-h"} {
			r := runCLI(t, nil, nil, group, flag)
			if r.code != ExitOK || !strings.Contains(r.stdout, "Usage: allot "+group+" COMMAND") || r.stderr != "" {
				t.Errorf("allot %s %s: exit %d, stdout %q, stderr %q", group, flag, r.code, r.stdout, r.stderr)
			}
		}
	}
}

// TestHelpShowsArguments: a command that takes arguments says what each
// is, and one with no flags of its own has no empty "Flags:" heading.
func TestHelpShowsArguments(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, nil, "pin", "rm", "--help")
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{"Arguments:\n  KIND", "\n  ADDR"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("pin rm --help lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Flags:\n\n") {
		t.Errorf("pin rm --help has an empty Flags: heading:\n%s", r.stdout)
	}
}

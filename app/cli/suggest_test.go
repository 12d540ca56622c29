package cli

import (
	"strings"
	"testing"
)

// TestUnknownCommandSuggests: a command name short or long by a letter
// or a word is answered with the command meant; a name like none is not.
func TestUnknownCommandSuggests(t *testing.T) {
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

package cli

import (
	"flag"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestSynopsesMatchFlags: each command's synopsis (allot help CMD's first
// line) names exactly the flags its FlagSet declares, the global ones
// aside, each with the placeholder its help gives (claim's left out
// --keystore and --passphrase-file, which its help listed).
func TestSynopsesMatchFlags(t *testing.T) {
	t.Parallel()
	global := map[string]bool{"config": true, "profile": true, "sandbox": true, "read-only": true}
	// A flag in a synopsis, and the word after it when it is a
	// placeholder: --sender ADDR, [--yes], -o json|csv.
	inSynopsis := regexp.MustCompile(`(?:^|[\s\[|])--?([a-z][a-z0-9-]*)(?: ([A-Z][A-Z0-9_]*(?:\.[a-z]+)?))?`)
	for _, c := range commands {
		fs := newFlagSet(c, &env{})
		c.flags(fs, &env{})
		declared := map[string]string{} // name: placeholder
		fs.VisitAll(func(f *flag.Flag) {
			if !global[f.Name] || c.standalone {
				declared[f.Name], _ = flag.UnquoteUsage(f)
			}
		})
		written := map[string]bool{}
		for _, m := range inSynopsis.FindAllStringSubmatch(c.args, -1) {
			name, arg := m[1], m[2]
			written[name] = true
			want, ok := declared[name]
			switch {
			case !ok:
				t.Errorf("%s: the synopsis names --%s, which it does not take", c.name, name)
			case arg != "" && arg != want && !strings.HasPrefix(want, arg):
				t.Errorf("%s: the synopsis writes --%s %s, its help --%s %s", c.name, name, arg, name, want)
			}
		}
		var missing []string
		for name := range declared {
			if !written[name] {
				missing = append(missing, "--"+name)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: the synopsis %q leaves out %s", c.name, c.args, strings.Join(missing, ", "))
		}
	}
}

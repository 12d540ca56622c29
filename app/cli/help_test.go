package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHelpCitesOnlyRepoFiles: `allot help` and every command's help name
// no file outside the repository, and each file of it they name exists, so
// a reader can follow the reference.
func TestHelpCitesOnlyRepoFiles(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	printUsage(&all)
	for _, cmd := range commands {
		fs := newFlagSet(cmd, &env{})
		cmd.flags(fs, &env{})
		printCommandUsage(&all, cmd, fs)
	}
	help := all.String()
	for _, outside := range []string{"decisions.md", "service-api", "../", "/shared/"} {
		if strings.Contains(help, outside) {
			t.Errorf("the help cites %q, which is not in the repository", outside)
		}
	}
	cited := regexp.MustCompile(`\bdocs/[\w./-]+\.md\b`).FindAllString(help, -1)
	if len(cited) == 0 {
		t.Fatal("the help cites no docs/ file: schedule create's summary names the body's rules in one")
	}
	for _, path := range cited {
		if _, err := os.Stat(filepath.Join("..", "..", path)); err != nil {
			t.Errorf("the help cites %s: %v", path, err)
		}
	}
}

package keystore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPassphraseSourceCheck: where the passphrase will come from is known
// before it is read: a file that cannot be opened, or neither file,
// environment nor terminal, is an error; an empty environment variable
// counts as none.
func TestPassphraseSourceCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pass")
	if err := os.WriteFile(file, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(v string) func(string) string { return func(string) string { return v } }
	typed := func() (string, error) { return "typed", nil }
	for _, tc := range []struct {
		name string
		src  PassphraseSource
		want string // in the error; "" for none
	}{
		{"a file", PassphraseSource{File: file}, ""},
		{"a missing file", PassphraseSource{File: filepath.Join(dir, "nope"), Getenv: env("x")}, "passphrase file:"},
		{"a folder", PassphraseSource{File: dir}, "is not a regular file"},
		{"the environment", PassphraseSource{Getenv: env("x")}, ""},
		{"a terminal", PassphraseSource{Getenv: env(""), Terminal: typed}, ""},
		{"nothing", PassphraseSource{Getenv: env("")}, "no passphrase: not on a terminal"},
	} {
		err := tc.src.Check()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

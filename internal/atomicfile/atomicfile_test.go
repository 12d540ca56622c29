package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrite: the file holds the new data whole, mode 0600, and no
// temporary file stays beside it.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "follows.json")
	for _, data := range []string{"old\n", "new\n"} {
		if err := Write(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left beside it: %v", entries)
	}
}

// TestWriteErrorNamesThePath: a write that fails names the file asked
// for, not the temporary one, and leaves nothing behind.
func TestWriteErrorNamesThePath(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope", "x.ics")
	err := Write(missing, []byte("x"))
	if err == nil || !errors.Is(err, fs.ErrNotExist) || err.Error() != "write "+missing+": no such file or directory" {
		t.Errorf("err = %v", err)
	}
	// The target is a directory: the rename fails after the temporary
	// file was written, and it goes.
	target := filepath.Join(dir, "taken")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("x")); err == nil || !strings.HasPrefix(err.Error(), "write "+target+": ") || strings.Contains(err.Error(), ".taken.") {
		t.Errorf("err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestWriteModeKeepsMode: the new file has the mode asked for, not 0600.
func TestWriteModeKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := WriteMode(path, []byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v: want 0640", info.Mode().Perm(), err)
	}
}

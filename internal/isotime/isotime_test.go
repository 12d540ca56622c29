package isotime

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFormatIsUTC: a time in another zone is written as the UTC instant
// it is, not its wall clock followed by a Z.
func TestFormatIsUTC(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	at := time.Date(2026, 11, 22, 11, 30, 0, 123456789, berlin)
	const want = "2026-11-22T10:30:00.123Z"
	if got := Format(at); got != want {
		t.Errorf("Format = %s, want %s", got, want)
	}
	if got := string(Append([]byte("at "), at)); got != "at "+want {
		t.Errorf("Append = %s", got)
	}
	if back, err := time.Parse(Layout, want); err != nil || !back.Equal(at.Truncate(time.Millisecond)) {
		t.Errorf("parsed back %v, %v", back, err)
	}
}

// TestLayoutDefinedOnce: no Go file of the module but this package's
// spells the layout (or its time part, ".000Z"): each writes through
// Format or Append, which convert to UTC.
func TestLayoutDefinedOnce(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's root is not %s: %v", root, err)
	}
	here, _ := filepath.Abs(".")
	spelt := "15:04:05" + ".000Z" // not the literal, so this file does not match itself
	n := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == here || strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		n++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, spelt) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d spells D15's layout: use isotime.Format, Append or Layout", rel, i+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d Go files: the walk missed the module", n)
	}
}

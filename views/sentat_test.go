package views

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSentAt(t *testing.T) {
	at := time.Date(2026, 11, 22, 11, 30, 5, 0, time.FixedZone("CET", 3600))
	if got, want := SentAt(at), "10:30:05 UTC on 22 Nov 2026"; got != want {
		t.Errorf("SentAt = %q, want %q", got, want)
	}
}

// TestSentAtWrittenOnce: no screen spells the form of SentAt again.
func TestSentAtWrittenOnce(t *testing.T) {
	spelt := "on 2 Jan" + " 2006"
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || path == "sentat.go" {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), spelt) {
			t.Errorf("%s spells the time a lost write was sent: use SentAt", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

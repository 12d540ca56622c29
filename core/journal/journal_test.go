package journal

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAppendAndRead(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	want := []Entry{
		{At: at, Kind: KindRequest, Op: "transactions/create", Ref: "r1", Data: json.RawMessage(`{"action":"INITIALIZE"}`)},
		{At: at, Kind: KindOutcome, Op: "transactions/create", Ref: "r1", Status: "PENDING"},
	}
	for _, e := range want {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != 2 || got.Entries[1].Status != "PENDING" || string(got.Entries[0].Data) != `{"action":"INITIALIZE"}` {
		t.Errorf("entries = %+v", got.Entries)
	}
	info, _ := os.Stat(j.Path())
	if info.Mode().Perm() != 0o600 {
		t.Errorf("journal mode %v, want 0600", info.Mode().Perm())
	}
}

func TestTornLastLineIsSkippedAndNothingBeforeIsLost(t *testing.T) {
	j, _ := Open(t.TempDir())
	j.Append(Entry{Kind: KindRequest, Ref: "a"})
	j.Append(Entry{Kind: KindRequest, Ref: "b"})
	// A crash in the middle of the third write.
	f, _ := os.OpenFile(j.Path(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"at":"2026-11-22T10:00:00Z","kind":"requ`)
	f.Close()

	got, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != 2 || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "line 3") {
		t.Fatalf("entries %d, warnings %q", len(got.Entries), got.Warnings)
	}
	// The next append starts on a fresh line and reads back.
	if err := j.Append(Entry{Kind: KindRequest, Ref: "c"}); err != nil {
		t.Fatal(err)
	}
	got, _ = j.Read()
	if len(got.Entries) != 3 || got.Entries[2].Ref != "c" || len(got.Warnings) != 1 {
		t.Fatalf("after append: entries %+v, warnings %q", got.Entries, got.Warnings)
	}
}

func TestOverlongLineIsSkipped(t *testing.T) {
	j, _ := Open(t.TempDir())
	j.Append(Entry{Kind: KindLookup, Ref: "a"})
	f, _ := os.OpenFile(j.Path(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(strings.Repeat("x", MaxLine+10) + "\n")
	f.Close()
	j.Append(Entry{Kind: KindLookup, Ref: "b"})
	got, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != 2 || len(got.Warnings) != 1 {
		t.Errorf("entries %d warnings %q", len(got.Entries), got.Warnings)
	}
}

func TestMissingJournalIsEmpty(t *testing.T) {
	j, _ := Open(t.TempDir())
	got, err := j.Read()
	if err != nil || len(got.Entries) != 0 {
		t.Errorf("%+v, %v", got, err)
	}
}

func TestConcurrentAppends(t *testing.T) {
	j, _ := Open(t.TempDir())
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.Append(Entry{Kind: KindTransaction, Ref: strings.Repeat("h", i+1)})
		}()
	}
	wg.Wait()
	got, _ := j.Read()
	if len(got.Entries) != 20 || len(got.Warnings) != 0 {
		t.Errorf("entries %d warnings %q", len(got.Entries), got.Warnings)
	}
}

// TestReadTail: the tail holds the newest entries, whole, and nothing
// damaged where the tail cuts a line.
func TestReadTail(t *testing.T) {
	j, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if err := j.Append(Entry{Kind: KindLookup, Ref: fmt.Sprintf("ref-%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{1, 50, 500, 5000, 1 << 20} {
		tail, err := j.ReadTail(size)
		if err != nil {
			t.Fatal(err)
		}
		if len(tail.Warnings) != 0 {
			t.Errorf("tail of %d: warnings %v", size, tail.Warnings)
		}
		n := len(tail.Entries)
		if n > len(all.Entries) || (size >= 1<<20 && n != len(all.Entries)) || (size == 500 && n == 0) {
			t.Fatalf("tail of %d bytes: %d entries", size, n)
		}
		for i, e := range tail.Entries {
			if want := all.Entries[len(all.Entries)-n+i].Ref; e.Ref != want {
				t.Fatalf("tail of %d bytes: entry %d is %s, want %s", size, i, e.Ref, want)
			}
		}
	}
}

// TestOpenMakesPrivate: a journal at 0644 in a folder at 0755 (an older
// allot, a restore from backup) is made 0600 in a 0700 folder.
func TestOpenMakesPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	os.MkdirAll(dir, 0o755)
	os.Chmod(dir, 0o755)
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, nil, 0o644)
	os.Chmod(path, 0o644)
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Warnings()) != 0 {
		t.Errorf("warnings %q", j.Warnings())
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v (%v)", p, info.Mode().Perm(), want, err)
		}
	}
}

package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"allot/core/write"
)

var (
	indexDep   = Deployment{Profile: "p", BaseURL: "http://x", ChainID: 1}
	indexOther = Deployment{Profile: "p", BaseURL: "http://y", ChainID: 1}
)

// fillJournal appends n writes of each kind Transactions lists, on two
// deployments, with a chain transaction's statuses and its signature.
func fillJournal(t testing.TB, j *Journal, n int) {
	t.Helper()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var entries []Entry
	for i := range n {
		w := fmt.Sprintf("w%d", i)
		hash := fmt.Sprintf("0x%064x", i)
		entries = append(entries,
			indexDep.Stamp(Entry{Kind: KindRequest, Op: write.OpTransaction, Ref: "initialize", Write: w, Data: json.RawMessage(`{"action":"initialize"}`)}),
			indexDep.Stamp(Entry{Kind: KindOutcome, Op: write.OpTransaction, Ref: "initialize", Write: w, Status: "ok",
				Data: json.RawMessage(fmt.Sprintf(`{"transactions":[{"transactionId":"t%d","status":"PENDING"},{"transactionId":"u%d","status":"FAILED"}]}`, i, i))}),
			indexDep.Stamp(Entry{Kind: KindRequest, Op: write.OpClaim, Ref: "c", Write: w + "c"}),
			indexDep.Stamp(Entry{Kind: KindOutcome, Op: write.OpClaim, Ref: "c", Write: w + "c", Status: StatusUnknown}),
			indexOther.Stamp(Entry{Kind: KindRequest, Op: write.OpClaim, Ref: "elsewhere", Write: w + "o"}),
			indexDep.Stamp(Entry{Kind: KindRequest, Op: write.OpSchedule, Ref: "old"}), // no Write id: paired by op and ref
			indexDep.Stamp(Entry{Kind: KindSignature, Op: "claim", Ref: hash, Data: json.RawMessage(`{"summary":{"to":"0x01"}}`)}),
			indexDep.Stamp(Entry{Kind: KindTransaction, Op: "claim", Ref: hash, Status: "pending"}),
			indexDep.Stamp(Entry{Kind: KindLookup, Ref: "a"}),
			indexDep.Stamp(Entry{Kind: KindOutcome, Op: write.OpSchedule, Ref: "old", Status: StatusUnknown}),
			indexDep.Stamp(Entry{Kind: KindOutcome, Op: write.OpClaim, Ref: "c", Write: w + "c", Status: StatusApplied}),
			indexDep.Stamp(Entry{Kind: KindTransaction, Op: "claim", Ref: hash, Status: "success", Data: json.RawMessage(`{"block":7,"gasUsed":21000}`)}),
		)
	}
	for i, e := range entries {
		e.At = at.Add(time.Duration(i/3) * time.Second) // ties, broken by the journal's order
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

// sameAsWholeFile holds the index's answer to the whole-file reading's,
// warnings included.
func sameAsWholeFile(t *testing.T, j *Journal) []Transaction {
	t.Helper()
	for _, d := range []Deployment{indexDep, indexOther} {
		want, wantWarnings, err := wholeFileTransactions(j, d)
		if err != nil {
			t.Fatal(err)
		}
		got, warnings, err := j.Transactions(d)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the index lists %d transactions, the file %d:\n%+v\n%+v", d.BaseURL, len(got), len(want), got, want)
		}
		if !reflect.DeepEqual(warnings, wantWarnings) {
			t.Fatalf("warnings %q, want %q", warnings, wantWarnings)
		}
	}
	got, _, _ := j.Transactions(indexDep)
	return got
}

func openFilled(t *testing.T, n int) (*Journal, string) {
	t.Helper()
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	fillJournal(t, j, n)
	return j, dir
}

// TestIndexAnswersAsTheFile: the index, kept on append, lists what the
// whole file says, in its order, and stays current as entries come.
func TestIndexAnswersAsTheFile(t *testing.T) {
	j, _ := openFilled(t, 5)
	if got := sameAsWholeFile(t, j); len(got) != 5*5 {
		t.Fatalf("%d transactions", len(got))
	}
	fillJournal(t, j, 2)
	sameAsWholeFile(t, j)
}

// TestIndexRebuiltWhenMissingOrDamaged: a missing index, one of garbage,
// one cut mid-record and one from another journal are all rebuilt (or
// mended) from the file, and nothing is lost.
func TestIndexRebuiltWhenMissingOrDamaged(t *testing.T) {
	for name, damage := range map[string]func(path string) error{
		"missing":  os.Remove,
		"garbage":  func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte{0xff}, 500), 0o600) },
		"cut":      func(p string) error { info, _ := os.Stat(p); return os.Truncate(p, info.Size()-20) },
		"headless": func(p string) error { return os.Truncate(p, 10) },
		"shuffled": shuffleRecords,
		"empty":    func(p string) error { return os.WriteFile(p, nil, 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			j, dir := openFilled(t, 4)
			sameAsWholeFile(t, j)
			if err := damage(filepath.Join(dir, IndexName)); err != nil {
				t.Fatal(err)
			}
			if got := sameAsWholeFile(t, j); len(got) != 4*5 {
				t.Fatalf("%d transactions after the index was %s", len(got), name)
			}
		})
	}
}

// shuffleRecords swaps the index's first two records: offsets out of
// order are an index to rebuild, not answers.
func shuffleRecords(p string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	a := bytes.Clone(b[headerSize : headerSize+recordSize])
	copy(b[headerSize:], b[headerSize+recordSize:headerSize+2*recordSize])
	copy(b[headerSize+recordSize:], a)
	return os.WriteFile(p, b, 0o600)
}

// TestIndexFollowsTheJournal: a journal appended by another process (or
// an older allot) is indexed at its tail; one truncated, damaged in the
// middle, edited by hand in place or at another length, or left without
// its last newline is indexed anew, and lists what the file says.
func TestIndexFollowsTheJournal(t *testing.T) {
	for name, change := range map[string]func(b []byte) []byte{
		"appended elsewhere": func(b []byte) []byte {
			line, _ := json.Marshal(indexDep.Stamp(Entry{At: time.Now().UTC(), Kind: KindRequest, Op: write.OpClaim, Ref: "late", Write: "late"}))
			return append(b, append(line, '\n')...)
		},
		"truncated":      func(b []byte) []byte { return b[:len(b)/2] },
		"torn last line": func(b []byte) []byte { return b[:len(b)-30] },
		"damaged line": func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"kind":"outcome"`), []byte(`"kind":"outcome`), 1)
		},
		"edited in place": func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"status":"PENDING"`), []byte(`"status":"FAILED!"`), 1)
		},
		"edited, longer":     func(b []byte) []byte { return bytes.Replace(b, []byte(`"ref":"c"`), []byte(`"ref":"claim"`), 1) },
		"line deleted":       func(b []byte) []byte { i := bytes.IndexByte(b, '\n'); return b[i+1:] },
		"no final newline":   func(b []byte) []byte { return bytes.TrimSuffix(b, []byte("\n")) },
		"blank lines":        func(b []byte) []byte { return bytes.Replace(b, []byte("\n"), []byte("\n\n  \n"), 3) },
		"replaced by a copy": func(b []byte) []byte { return append(b, b...) },
	} {
		t.Run(name, func(t *testing.T) {
			j, _ := openFilled(t, 3)
			sameAsWholeFile(t, j)
			b, err := os.ReadFile(j.Path())
			if err != nil {
				t.Fatal(err)
			}
			// A hand edit keeps the file's size and time only by
			// chance: this one keeps both, and the lines re-read say so.
			info, _ := os.Stat(j.Path())
			if err := os.WriteFile(j.Path(), change(b), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(j.Path(), info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
			sameAsWholeFile(t, j)
		})
	}
}

// TestEntriesAsTheFile: the entries of a kind (and op) the index finds
// are the file's, newest first, across more than one chunk of records,
// and after the file was edited in place.
func TestEntriesAsTheFile(t *testing.T) {
	j, _ := openFilled(t, 100)
	check := func() {
		t.Helper()
		res, err := j.Read()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Match{{Kind: KindSignature}, {Kind: KindOutcome, Op: write.OpClaim}, {Kind: KindLookup}} {
			var want []Entry
			for _, e := range slices.Backward(res.Entries) {
				if e.Kind == m.Kind && (m.Op == "" || e.Op == m.Op) {
					want = append(want, e)
				}
			}
			got, err := j.Entries(m)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 || !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v: %d entries, the file's %d", m, len(got), len(want))
			}
		}
	}
	check()
	b, _ := os.ReadFile(j.Path())
	info, _ := os.Stat(j.Path())
	os.WriteFile(j.Path(), bytes.Replace(b, []byte(`"to":"0x01"`), []byte(`"to":"0x02"`), 1), 0o600)
	os.Chtimes(j.Path(), info.ModTime(), info.ModTime())
	check()
}

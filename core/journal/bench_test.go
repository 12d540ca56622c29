package journal_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"allot/core/journal"
	"allot/core/journal/journaltest"
)

var indexDep = journal.Deployment{Profile: "p", BaseURL: "http://x", ChainID: 1}

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchJournal is a journal of n entries of the shape allot writes for
// one served deployment, transactions/create requests and their outcomes,
// made once a run in a temporary directory (written whole, not appended
// a sync at a time).
func benchJournal(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "allot-journal-bench-")
		if benchErr == nil {
			benchErr = journaltest.WriteWrites(filepath.Join(benchDir, journal.FileName), indexDep, journaltest.BenchSize())
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func openBench(b *testing.B) *journal.Journal {
	j, err := journal.Open(benchJournal(b))
	if err != nil {
		b.Fatal(err)
	}
	return j
}

// BenchmarkJournalIndexBuild: indexing the whole journal, as a missing or
// damaged index is, once.
func BenchmarkJournalIndexBuild(b *testing.B) {
	j := openBench(b)
	for b.Loop() {
		if err := journal.Reindex(j); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJournalTransactions: the Transactions screen's and `allot
// transactions`' reading, beside the whole-file reading it replaces:
// the first row, a first page of 100, and every row, with the most heap
// each held.
func BenchmarkJournalTransactions(b *testing.B) {
	j := openBench(b)
	if _, _, err := j.Transactions(indexDep); err != nil { // the index, built once
		b.Fatal(err)
	}
	first := func(n int) func() {
		return func() {
			got := 0
			if _, err := j.EachTransaction(indexDep, func(journal.Transaction) bool { got++; return n < 0 || got < n }); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"index/first-row", first(1)},
		{"index/first-100", first(100)},
		{"index/every-row", first(-1)},
		{"whole-file/every-row", func() {
			if _, _, err := journal.WholeFileTransactions(j, indexDep); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				peak = max(peak, journaltest.PeakHeap(c.run))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// BenchmarkJournalAppend: an append to the big journal, its index kept
// current, beside an append to a new one.
func BenchmarkJournalAppend(b *testing.B) {
	big := openBench(b)
	if _, _, err := big.Transactions(indexDep); err != nil {
		b.Fatal(err)
	}
	small, err := journal.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for name, j := range map[string]*journal.Journal{"1M": big, "new": small} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := j.Append(indexDep.Stamp(journal.Entry{Kind: journal.KindLookup, Ref: "a"})); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMain removes the benchmarks' journal, made once a run.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

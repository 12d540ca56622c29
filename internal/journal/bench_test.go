package journal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// benchEntries sizes the benchmarks' journal: ALLOT_BENCH_JOURNAL entries,
// 1,000,000 unless set.
func benchEntries(b *testing.B) int {
	if n, err := strconv.Atoi(os.Getenv("ALLOT_BENCH_JOURNAL")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

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
			benchErr = writeBenchJournal(filepath.Join(benchDir, FileName), benchEntries(b))
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func writeBenchJournal(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20) // a failed write fails Flush
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	body := json.RawMessage(`{"action":"START_DISTRIBUTION","contract":"0x5FbDB2315678afecb367f032d93F642f64180aa3","recipients":[{"wallet":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","amount":"1000000000000000000"}]}`)
	for i := range n / 2 {
		id := fmt.Sprintf("%032x", i)
		req := indexDep.Stamp(Entry{At: at, Kind: KindRequest, Op: OpTransaction, Ref: "START_DISTRIBUTION", Write: id, Data: body})
		out := req
		out.Kind, out.Status, out.Data = KindOutcome, "ok", json.RawMessage(`{"transactions":[{"transactionId":"`+id+`","status":"PENDING"}]}`)
		for _, e := range []Entry{req, out} {
			line, err := json.Marshal(e)
			if err != nil {
				return err
			}
			w.Write(append(line, '\n'))
		}
		at = at.Add(time.Minute)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil { // an append's sync must not write it all
		return err
	}
	return f.Close()
}

// peakHeap samples the heap in use while run runs: the most it held.
func peakHeap(run func()) uint64 {
	runtime.GC()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	run()
	close(done)
	wg.Wait()
	return peak
}

func openBench(b *testing.B) *Journal {
	j, err := Open(benchJournal(b))
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
		j.mu.Lock()
		if err := j.rebuild(); err != nil {
			b.Fatal(err)
		}
		_, err := j.current()
		j.mu.Unlock()
		if err != nil {
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
			if _, err := j.EachTransaction(indexDep, func(Transaction) bool { got++; return n < 0 || got < n }); err != nil {
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
			if _, _, err := wholeFileTransactions(j, indexDep); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				peak = max(peak, peakHeap(c.run))
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
	small, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for name, j := range map[string]*Journal{"1M": big, "new": small} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := j.Append(indexDep.Stamp(Entry{Kind: KindLookup, Ref: "a"})); err != nil {
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

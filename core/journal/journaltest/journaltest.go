// Package journaltest reads the local journal in tests, as httptest serves
// HTTP in them.
package journaltest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"allot/core/journal"
	"allot/core/write"
)

// Entries reads every entry of the journal in dir.
func Entries(t testing.TB, dir string) []journal.Entry {
	t.Helper()
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	return res.Entries
}

// Of keeps the entries of kind and, unless op is empty, of op.
func Of(entries []journal.Entry, kind, op string) []journal.Entry {
	var out []journal.Entry
	for _, e := range entries {
		if e.Kind == kind && (op == "" || e.Op == op) {
			out = append(out, e)
		}
	}
	return out
}

// WriteWrites writes a journal at path of n entries of the shape allot
// writes for deployment d, transactions/create requests and their
// outcomes, one a minute, in one go (not appended a sync at a time), and
// syncs it once: an append after it must not write it all.
func WriteWrites(path string, d journal.Deployment, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20) // a failed write fails Flush
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	body := json.RawMessage(`{"action":"START_DISTRIBUTION","contract":"0x5FbDB2315678afecb367f032d93F642f64180aa3","recipients":[{"wallet":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","amount":"1000000000000000000"}]}`)
	for i := range n / 2 {
		id := fmt.Sprintf("%032x", i)
		req := d.Stamp(journal.Entry{At: at, Kind: journal.KindRequest, Op: write.OpTransaction, Ref: "START_DISTRIBUTION", Write: id, Data: body})
		out := req
		out.Kind, out.Status, out.Data = journal.KindOutcome, "ok", json.RawMessage(`{"transactions":[{"transactionId":"`+id+`","status":"PENDING"}]}`)
		for _, e := range []journal.Entry{req, out} {
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
	return f.Sync()
}

// PeakHeap samples the heap in use while run runs, every 5 ms: about the
// most it held beyond what was in use before (a sandbox's, a test's),
// its garbage not yet collected included.
func PeakHeap(run func()) uint64 {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	run()
	close(done)
	wg.Wait()
	return peak - min(peak, before.HeapInuse)
}

// BenchSize is ALLOT_BENCH_JOURNAL, the journal benchmarks' entries;
// 1,000,000 unless set.
func BenchSize() int {
	if n, err := strconv.Atoi(os.Getenv("ALLOT_BENCH_JOURNAL")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

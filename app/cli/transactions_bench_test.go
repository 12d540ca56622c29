package cli

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/txlog"
)

// BenchmarkTransactionsJSON: `allot transactions -o json` over a journal
// of ALLOT_BENCH_JOURNAL entries (1,000,000 unless set; made once, its
// index built before), the time to its first row and the most heap it
// held, beside the reading it replaces (every row read, then written):
//
//	go test -run '^$' -bench TransactionsJSON -benchtime 1x -count 3 ./app/cli/
func BenchmarkTransactionsJSON(b *testing.B) {
	s, err := embedded.Sandbox(sandbox.Options{KeystoreDir: b.TempDir()}, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := journaltest.WriteWrites(filepath.Join(s.StateDir, journal.FileName), s.Deployment(), journaltest.BenchSize()); err != nil {
		b.Fatal(err)
	}
	j, err := journal.Open(s.StateDir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := txlog.ReadNewest(j, s.Deployment(), 1); err != nil { // the index, built once
		b.Fatal(err)
	}
	measure := func(b *testing.B, command func(out io.Writer) error) {
		var first time.Duration
		var peak uint64
		for b.Loop() {
			w := &firstWrite{start: time.Now()}
			peak = max(peak, journaltest.PeakHeap(func() {
				if err := command(w); err != nil {
					b.Fatal(err)
				}
			}))
			first = max(first, w.first)
		}
		b.ReportMetric(float64(first.Milliseconds()), "first-row-ms")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	}
	b.Run("streamed", func(b *testing.B) {
		measure(b, func(out io.Writer) error {
			e := &env{IO: IO{Stdout: out, Stderr: io.Discard, Getenv: func(string) string { return "" }}, sess: s}
			return run(context.Background(), e, []string{"transactions", "-o", "json"})
		})
	})
	b.Run("whole", func(b *testing.B) {
		measure(b, func(out io.Writer) error {
			rows, err := txlog.Read(j, s.Deployment())
			if err != nil {
				return err
			}
			list := make([]transactionJSON, 0, len(rows))
			for _, r := range rows {
				list = append(list, jsonRow(r))
			}
			return writeJSON(out, map[string]any{"transactions": list})
		})
	})
}

// firstWrite discards what is written, noting when the first byte came.
type firstWrite struct {
	start time.Time
	first time.Duration
}

func (w *firstWrite) Write(p []byte) (int, error) {
	if w.first == 0 {
		w.first = time.Since(w.start)
	}
	return len(p), nil
}

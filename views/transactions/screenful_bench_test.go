package transactions

import (
	"path/filepath"
	"testing"

	"allot/core/journal"
	"allot/core/journal/journaltest"
)

// BenchmarkScreenful: the Transactions screen's rows from a journal of
// ALLOT_BENCH_JOURNAL entries (1,000,000 unless set), its index built
// before, beside every row read as the screen read them before:
//
//	go test -run '^$' -bench Screenful -benchtime 1x -count 3 ./views/transactions/
func BenchmarkScreenful(b *testing.B) {
	dir := b.TempDir()
	d := journal.Deployment{Profile: "p", BaseURL: "http://x", ChainID: 1}
	if err := journaltest.WriteWrites(filepath.Join(dir, journal.FileName), d, journaltest.BenchSize()); err != nil {
		b.Fatal(err)
	}
	j, err := journal.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ReadNewest(j, d, 1); err != nil { // the index, built once
		b.Fatal(err)
	}
	for name, read := range map[string]func() ([]Row, error){
		"newest":    func() ([]Row, error) { return screenful(j, d) },
		"every-row": func() ([]Row, error) { return Read(j, d) },
	} {
		b.Run(name, func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				peak = max(peak, journaltest.PeakHeap(func() {
					if _, err := read(); err != nil && name == "every-row" {
						b.Fatal(err)
					}
				}))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

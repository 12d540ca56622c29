package embedded

import (
	"context"
	"slices"
	"testing"
	"time"

	"allot/api/sandbox"
)

// BenchmarkEmbeddedSandbox starts the embedded sandbox as allot does with
// no configuration (its background work held back, Hold) and lists
// the default token's contracts, the first screen's data. Per start it measures the milliseconds to that first data
// (first-data-ms, the target is under 300) and until the whole world is
// seeded and deployed (seeded-ms), and reports their medians; -v logs
// min/median/max.
func BenchmarkEmbeddedSandbox(b *testing.B) {
	var first, seeded []float64
	for b.Loop() {
		start := time.Now()
		s, err := open(sandbox.Options{KeystoreDir: b.TempDir()}, b.TempDir(), Hold)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.API.Contracts(context.Background(), s.TokenIDs[0]); err != nil {
			b.Fatal(err)
		}
		first = append(first, ms(time.Since(start)))
		if err := s.Seeded(context.Background()); err != nil {
			b.Fatal(err)
		}
		seeded = append(seeded, ms(time.Since(start)))
		s.Close()
	}
	b.ReportMetric(spread(b, "first data", first), "first-data-ms")
	b.ReportMetric(spread(b, "all seeded", seeded), "seeded-ms")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// spread logs the min, median and max of xs and returns the median.
func spread(b *testing.B, what string, xs []float64) float64 {
	xs = slices.Sorted(slices.Values(xs))
	med := xs[len(xs)/2]
	b.Logf("%s: min %.0f ms, median %.0f ms, max %.0f ms over %d starts", what, xs[0], med, xs[len(xs)-1], len(xs))
	return med
}

package browse

import (
	"runtime"
	"testing"

	"allot/views"
)

// A dashboard left open on a pool of 100,000 stakes, refresh on: the
// lists' rhythm reads the pool again every 30 s, twenty times in ten
// minutes.
//
//	go test -run '^$' -bench 'StakesRefresh100k' -benchmem ./views/browse/
//
// BenchmarkStakesRefresh100k/refresh is one refresh read whole and shown;
// it reports the heap retained after the first load and after every
// refresh (MB-heap-loaded, MB-heap-refreshed, after a GC), which stay
// level when nothing is kept across refreshes. /keydown-still and
// /keydown-refreshed are a keystroke and a redraw on the same screen
// before any refresh and after 20: the same cost.
func BenchmarkStakesRefresh100k(b *testing.B) {
	c, pool := whalePool(b, 100_000)
	s, d := benchScreen(c, pool)
	d.run(nil, s.Init())
	for range 40 {
		s.Update(keyDown)
	}
	s.View()
	keystroke := func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Update(keyDown)
			_ = s.View()
		}
	}
	b.Run("keydown-still", keystroke)
	loaded := heapMB()
	b.Run("refresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.run(nil, s.Update(views.RefreshMsg{}))
			if s.quiet != nil || s.Table.Len() != 100_000 {
				b.Fatalf("the refresh did not end whole: %d rows", s.Table.Len())
			}
		}
		b.ReportMetric(loaded, "MB-heap-loaded")
		b.ReportMetric(heapMB(), "MB-heap-refreshed")
	})
	for range 20 {
		d.run(nil, s.Update(views.RefreshMsg{}))
	}
	s.View()
	b.Run("keydown-refreshed", keystroke)
}

// heapMB is the live heap after a collection, in MB.
func heapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

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
// it reports the heap retained after the first load (MB-heap-loaded),
// after the first refresh (MB-heap-refreshed-1) and after all of them
// (MB-heap-refreshed, and MB-heap-growth the difference, over the count
// of refreshes), each after a GC: level when nothing is kept across
// refreshes. /refresh-sorted is the same under a sort by amount, where
// the refresh keeps the order on show. /keydown-still and
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
	refreshes := 0
	refresh := func(b *testing.B) {
		d.run(nil, s.Update(views.RefreshMsg{}))
		if s.quiet != nil || s.Table.Len() != 100_000 {
			b.Fatalf("the refresh did not end whole: %d rows", s.Table.Len())
		}
		refreshes++
	}
	refresh(b)
	first := heapMB()
	b.Run("refresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			refresh(b)
		}
		now := heapMB()
		b.ReportMetric(loaded, "MB-heap-loaded")
		b.ReportMetric(first, "MB-heap-refreshed-1")
		b.ReportMetric(now, "MB-heap-refreshed")
		b.ReportMetric(now-first, "MB-heap-growth")
		b.ReportMetric(float64(refreshes), "refreshes")
	})
	for range 20 {
		refresh(b)
	}
	s.View()
	b.Run("keydown-refreshed", keystroke)
	d.run(nil, s.Table.SortBy(1, true))
	b.Run("refresh-sorted", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			refresh(b)
		}
		b.ReportMetric(heapMB(), "MB-heap-refreshed")
	})
}

// heapMB is the live heap after a collection, in MB.
func heapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

package browse

import (
	"errors"
	"strings"
	"testing"

	"allot/views"
)

// TestStakesRefreshBehindTheRows: a refresh reads the pool again while the
// rows stay on show (the pool is never shown half read), is not started
// again while it runs, and shows the new rows whole with the cursor on the
// same stake; one that fails keeps the rows, marked stale.
func TestStakesRefreshBehindTheRows(t *testing.T) {
	src := &testSource{rows: decodeRows(t, manyStakes(3000)), batch: 1000}
	s, d := newStakesScreen(t, src)
	d.run(nil, s.Init())
	if s.Freshness().At.IsZero() {
		t.Fatal("a whole load does not say when it was read")
	}
	d.keys("j", "j", "j")
	focus, _ := s.Table.Selected()

	// The new read: one more stake, held after its first batch.
	src.rows = decodeRows(t, manyStakes(3001))
	src.holdAt, src.hold = 1000, make(chan struct{})
	d.run(func() bool { return src.asked() == 2 }, s.Update(views.RefreshMsg{}))
	if again := s.Update(views.RefreshMsg{}); again != nil {
		t.Fatal("a refresh started while one runs")
	}
	if s.Mode().Busy || s.Table.Len() != 3000 || !strings.Contains(summaryOf(s), "3,000 stakes ·") {
		t.Fatalf("while the refresh runs: busy %v, %d rows, %q", s.Mode().Busy, s.Table.Len(), summaryOf(s))
	}
	close(src.hold)
	d.run(nil)
	if s.Table.Len() != 3001 || !strings.Contains(summaryOf(s), "3,001 stakes ·") {
		t.Fatalf("after the refresh: %d rows, %q", s.Table.Len(), summaryOf(s))
	}
	if now, _ := s.Table.Selected(); now.IDString() != focus.IDString() {
		t.Fatalf("the cursor moved from %s to %s", focus.IDString(), now.IDString())
	}

	src.hold, src.err, src.failAt = nil, errors.New("service down"), 1000
	d.run(nil, s.Update(views.RefreshMsg{}))
	if s.Freshness().Stale == nil || s.Table.Len() != 3001 || s.Err != nil {
		t.Fatalf("a failed refresh: stale %v, %d rows, err %v", s.Freshness().Stale, s.Table.Len(), s.Err)
	}
}

// asked is how many reads the source was asked for.
func (s *testSource) asked() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

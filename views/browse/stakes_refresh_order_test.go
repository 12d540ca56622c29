package browse

import (
	"fmt"
	"slices"
	"testing"

	"allot/views"
)

// TestStakesRefreshKeepsTheOrder: sorted by amount, a pool read again
// with other amounts shows them in the order on show, the cursor on its
// stake; before, the refresh sorted the new amounts and the rows jumped.
func TestStakesRefreshKeepsTheOrder(t *testing.T) {
	const n = 3000
	src := &testSource{rows: decodeRows(t, manyStakes(n)), batch: 1000}
	s, d := newStakesScreen(t, src)
	d.run(nil, s.Init())
	d.run(nil, s.Table.SortBy(1, true)) // Amount, largest first
	d.keys("j", "j", "j")
	focus, _ := s.Table.Selected()
	before := shownIDs(s)

	// Every amount turns around: a sort would show the rows upside down.
	items := manyStakes(n)
	for i := range items {
		items[i] = stakeItem(i, walletA, fmt.Sprintf("%d", n-i), "STAKED")
	}
	src.rows = decodeRows(t, items)
	d.run(nil, s.Update(views.RefreshMsg{}))
	if got := shownIDs(s); !slices.Equal(got, before) {
		t.Fatalf("the refresh sorted under the user: first rows %v, were %v", got[:4], before[:4])
	}
	if now, _ := s.Table.Selected(); now.IDString() != focus.IDString() || now.AmountString() == focus.AmountString() {
		t.Fatalf("the cursor is on %s (%s), was on %s (%s)", now.IDString(), now.AmountString(), focus.IDString(), focus.AmountString())
	}
}

// shownIDs lists the stakes on show, in their order.
func shownIDs(s *stakes) []string {
	rows, shown := s.Table.Shown()
	ids := make([]string, len(shown))
	for n, i := range shown {
		ids[n] = rows.At(i).IDString()
	}
	return ids
}

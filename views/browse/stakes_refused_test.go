package browse

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/views"
)

// TestStakesRefusedWalletIsNotShownAsTheFilter: a wallet filter the
// service refuses leaves the pool's rows on show, and the table does not
// say "filter: 0x… (server)" over them as if they were that wallet's once
// the filter is no longer typed (the refusal does not take the input from
// under the keys: a later enter opened a row); the error says why.
func TestStakesRefusedWalletIsNotShownAsTheFilter(t *testing.T) {
	rows := decodeRows(t, manyStakes(100))
	mine := decodeRows(t, []string{stakeItem(9, walletA, "5", "STAKED")})
	src := &testSource{rows: rows, batch: 100, wallets: map[string][]api.StakeRow{walletA: mine}}
	s, d := newStakesScreen(t, src)
	d.run(nil, s.Init())
	src.err = errors.New("walletAddress: wrong EIP-55 checksum")
	d.keys("/")
	d.keys(strings.Split(walletA, "")...)
	if !s.Table.EditingFilter() {
		t.Fatal("the refusal took the filter from under the keys still typing it")
	}
	d.keys("enter")
	var refused bool
	for _, m := range d.out {
		if e, ok := m.(views.ErrorMsg); ok && strings.Contains(e.Err.Error(), "checksum") {
			refused = true
		}
	}
	if v := ansi.Strip(s.View()); !refused || strings.Contains(v, "(server)") || s.Table.Len() != 100 {
		t.Errorf("refused %v, %d rows:\n%s", refused, s.Table.Len(), v)
	}
}

package transactions

import (
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/views"
	"allot/views/reopen"
	"allot/viewstest"
	"allot/wallet"
)

// TestStatusesNeverSortUnderTheUser: sorted by status, a transaction
// mined keeps its place, as does the journal read again; s sorts anew.
// Before, each new status sorted the rows again.
func TestStatusesNeverSortUnderTheUser(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	send := claimSender(t, ctx)
	hashes := []common.Hash{common.HexToHash("0x01"), common.HexToHash("0x02"), common.HexToHash("0x03")}
	for _, h := range hashes {
		send(h.Hex())
	}
	tr := New(ctx, reopen.Unknown).(*transactions)
	drv := viewstest.NewSyncDriver(t, tr, 120, 30, viewstest.DropWaiting)
	drv.Run(tr.Table.SortBy(2, false)) // Status: all pending, newest first
	want := []string{hashes[2].Hex(), hashes[1].Hex(), hashes[0].Hex()}
	if got := shownIDs(tr); !slices.Equal(got, want) {
		t.Fatalf("before: %v", got)
	}

	// 0x02 mined: "success" sorts after "pending", but stays where it is.
	drv.Run(tr.Update(views.TxStatusMsg{Op: "claim", Status: wallet.Status{Hash: hashes[1], State: wallet.StateSuccess, Block: 7, Confirmations: 1}}))
	if got := shownIDs(tr); !slices.Equal(got, want) {
		t.Fatalf("a new status sorted under the user: %v, want %v", got, want)
	}
	drv.Run(tr.Update(views.RefreshMsg{}))
	if got := shownIDs(tr); !slices.Equal(got, want) {
		t.Fatalf("a refresh sorted under the user: %v, want %v", got, want)
	}
	if row, _ := tr.Table.Selected(); row.ID != hashes[2].Hex() {
		t.Fatalf("the cursor moved to %s", row.ID)
	}
	drv.Run(tr.Table.SortBy(2, false))
	if got, sorted := shownIDs(tr), []string{hashes[2].Hex(), hashes[0].Hex(), hashes[1].Hex()}; !slices.Equal(got, sorted) {
		t.Fatalf("the sort asked again: %v, want %v", got, sorted)
	}
}

// shownIDs lists the transactions on show, in their order.
func shownIDs(tr *transactions) []string {
	rows, shown := tr.Table.Shown()
	var ids []string
	for _, i := range shown {
		ids = append(ids, rows.At(i).ID)
	}
	return ids
}

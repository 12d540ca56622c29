package transactions

import (
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/journal"
	"allot/views"
	"allot/views/reopen"
	"allot/viewstest"
)

// TestTransactionsOpenOnTheNewest: a transaction recorded while the
// screen shows the newest one takes the cursor.
func TestTransactionsOpenOnTheNewest(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	send := claimSender(t, ctx)
	tr := New(ctx, reopen.Unknown).(*transactions)
	send("0xaaa")
	// Init's poll timer is dropped: the test reloads the list itself.
	drv := viewstest.NewSyncDriver(t, tr, 120, 30, viewstest.DropWaiting)
	send("0xbbb")
	drv.Run(tr.Reload())
	if row, ok := tr.Table.Selected(); !ok || row.ID != "0xbbb" {
		t.Fatalf("the cursor is on %q, want the newest, 0xbbb:\n%s", row.ID, tr.View())
	}
}

// claimSender journals, on ctx's deployment, a claim sent with the hash
// it is given, a minute after the one before.
func claimSender(t *testing.T, ctx *views.Context) func(hash string) {
	j, d := ctx.Journal, ctx.Session.Deployment()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return func(hash string) {
		t.Helper()
		at = at.Add(time.Minute)
		if err := j.Append(d.Stamp(journal.Entry{At: at, Kind: journal.KindTransaction,
			Op: "claim", Ref: hash, Status: "pending"})); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTransactionsShowServiceStatusesAsSent: the service's PENDING, which
// nothing ever updates, is shown CREATED; any other status it answers
// with is shown as sent, as the operator's result page and `allot tx` do.
func TestTransactionsShowServiceStatusesAsSent(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	s, j := ctx.Session, ctx.Journal
	rec := &act.Recorder{Journal: j, Deployment: s.Deployment()}
	answer := &api.TransactionsResult{Transactions: []api.Transaction{
		{TransactionID: "5f0c3d0e-8a51-4c1e-9d7a-2b6c4f1e0a11", Status: "PENDING"},
		{TransactionID: "6f0c3d0e-8a51-4c1e-9d7a-2b6c4f1e0a11", Status: "FAILED"},
	}}
	if err := rec.Write(act.OpTransaction, api.ActionInitialize, map[string]string{"action": api.ActionInitialize}, func() (string, any, error) {
		return "ok", answer, nil
	}); err != nil {
		t.Fatal(err)
	}
	rows, err := Read(j, s.Deployment())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		got[r.ID] = r.Status
	}
	if got["5f0c3d0e-8a51-4c1e-9d7a-2b6c4f1e0a11"] != api.TransactionCreated || got["6f0c3d0e-8a51-4c1e-9d7a-2b6c4f1e0a11"] != "FAILED" {
		t.Errorf("statuses shown: %v", got)
	}
}

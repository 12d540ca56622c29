package transactions

import (
	"io"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/journal"
	"allot/core/txlog"
	"allot/views"
	"allot/views/reopen"
	"allot/viewstest"
)

// TestTransactionsHelpNamesEveryKeyHandled: the transactions list's help,
// and that of the page an UNKNOWN write opens (views.LostWrite), name
// every key they answer and offer no key that does nothing: the list on
// an UNKNOWN write, the page after its check, and its resend question.
func TestTransactionsHelpNamesEveryKeyHandled(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	s, fx := ctx.Session, ctx.Session.Fixtures
	d := s.Deployment()
	for i, hash := range []string{"0xaaa", "0xbbb", "0xccc"} {
		if err := ctx.Journal.Append(d.Stamp(journal.Entry{At: viewstest.Now.Add(time.Duration(i) * time.Minute), Kind: journal.KindTransaction,
			Op: "claim", Ref: hash, Status: "pending"})); err != nil {
			t.Fatal(err)
		}
	}
	// A claim whose answer was lost, the newest row: enter reopens it.
	req := api.ClaimRequest{Sender: fx.Wallets[0].Address}
	ctx.Recorder.Write(act.OpClaim, fx.AllocationIDs[0], req, func() (string, any, error) {
		return "", nil, &api.OutcomeUnknownError{Op: "claim", Err: io.ErrUnexpectedEOF}
	})
	rows, err := Read(ctx.Journal, d)
	if err != nil || len(rows) == 0 || rows[0].Status != txlog.StatusUnknown {
		t.Fatalf("rows %+v, %v: want the lost claim first", rows, err)
	}
	lost := rows[0]
	list := func(t *testing.T) views.Screen {
		// Init would wait out its poll timer for every key checked: the
		// rows are read at once instead.
		tr := New(ctx, reopen.Unknown).(*transactions)
		viewstest.NewSyncDriver(t, tr, 120, 30, viewstest.NoInit).Run(tr.Reload())
		return tr
	}
	page := func(keys ...string) func(t *testing.T) views.Screen {
		return func(t *testing.T) views.Screen {
			scr := reopen.Unknown(ctx, lost.Op, lost.Ref, lost.Write, lost.Body, lost.At)
			viewstest.NewSyncDriver(t, scr, 100, 40).Keys(keys...)
			return scr
		}
	}
	for _, c := range []viewstest.HelpCase{
		// On the first row the table's moves up are idle, rightly offered.
		{Name: "list on an UNKNOWN write", Build: list, Idle: []string{"up", "home", "pgup", "ctrl+u"}},
		{Name: "lost write checked", Build: page()},
		{Name: "lost write's resend question", Build: page("r")},
	} {
		viewstest.CheckHelp(t, c)
	}
}

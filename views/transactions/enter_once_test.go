package transactions

import (
	"io"
	"slices"
	"testing"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/txlog"
	"allot/views/reopen"
	"allot/viewstest"
)

// TestUnknownRowOffersEnterOnce: on an UNKNOWN write enter checks or
// resends it; the footer offers enter once, for that, not also "enter
// details".
func TestUnknownRowOffersEnterOnce(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	fx := ctx.Session.Fixtures
	ctx.Recorder.Write(act.OpClaim, fx.AllocationIDs[0], api.ClaimRequest{Sender: fx.Wallets[0].Address}, func() (string, any, error) {
		return "", nil, &api.OutcomeUnknownError{Op: "claim", Err: io.ErrUnexpectedEOF}
	})
	tr := New(ctx, reopen.Unknown).(*transactions)
	viewstest.NewSyncDriver(t, tr, 120, 30, viewstest.NoInit).Run(tr.Reload())
	if row, ok := tr.Table.Selected(); !ok || row.Status != txlog.StatusUnknown {
		t.Fatalf("the UNKNOWN write is not on the cursor: %+v", row)
	}
	var enter []string
	for _, b := range tr.Keys().ShortHelp() {
		if slices.Contains(b.Keys(), "enter") {
			enter = append(enter, b.Help().Desc)
		}
	}
	if len(enter) != 1 || enter[0] != keyUnknown.Help().Desc {
		t.Errorf("the footer offers enter as %q, want once as %q", enter, keyUnknown.Help().Desc)
	}
}

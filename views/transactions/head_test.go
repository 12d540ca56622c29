package transactions

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/views/reopen"
	"allot/viewstest"
)

// TestConfirmationsCountUpFromTheHead: a claim journaled when it was
// mined in block 23 with one confirmation has 983 once the chain's head
// is 1005, in the table and in its details. Before, it said
// "Confirmations 1" whatever the head.
func TestConfirmationsCountUpFromTheHead(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	journalClaim(t, ctx.Journal, ctx.Session.Deployment())
	tr := New(ctx, reopen.Unknown).(*transactions)
	d := viewstest.NewSyncDriver(t, tr, 200, 60, viewstest.NoInit)
	d.Run(tr.Reload())
	confirmations := func() string {
		for _, l := range strings.Split(ansi.Strip(tr.View()), "\n") {
			if i := strings.Index(l, "Confirmations"); i >= 0 {
				return strings.Fields(l[i+len("Confirmations"):])[0]
			}
		}
		return ""
	}
	if got := confirmations(); got != "1" {
		t.Fatalf("before a head: confirmations %q, want 1:\n%s", got, ansi.Strip(tr.View()))
	}
	d.Run(tr.Update(ctx.SetHead(1005)))
	if got := confirmations(); got != "983" {
		t.Errorf("head 1005, block 23: confirmations %q, want 983", got)
	}
	// A head below the block (another node) says nothing of it.
	d.Run(tr.Update(ctx.SetHead(20)))
	if got := confirmations(); got != "1" {
		t.Errorf("head 20, block 23: confirmations %q, want the recorded 1", got)
	}
}

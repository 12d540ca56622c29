package transactions

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/core/rows"
	"allot/core/txlog"
	"allot/views/reopen"
	"allot/views/widget"
	"allot/viewstest"
)

// TestScreenIsItsDescription: the Transactions table and a row's details
// are the columns rows.Transactions gives them, titles, values and tones,
// in its order (what a chain transaction did after its status); a column
// added to the description shows in both, from that one edit.
func TestScreenIsItsDescription(t *testing.T) {
	was := rows.Transactions
	rows.Transactions = append(slices.Clip(was), rows.Column[txlog.Row]{Title: "Probe", Field: "probe",
		Value: func(r *txlog.Row, dst []byte) []byte { return append(append(dst, "probe:"...), r.ID[:10]...) }})
	t.Cleanup(func() { rows.Transactions = was })

	ctx := viewstest.Journaled(t, sandbox.Options{})
	journalClaim(t, ctx.Journal, ctx.Session.Deployment())
	tr := New(ctx, reopen.Unknown).(*transactions)
	viewstest.NewSyncDriver(t, tr, 400, 60, viewstest.NoInit).Run(tr.Reload())
	row, ok := tr.Table.Selected()
	if !ok {
		t.Fatal("no rows")
	}
	var titles, cells []string
	for _, c := range rows.Transactions.In(rows.Dashboard) {
		titles = append(titles, c.Title)
		cells = append(cells, c.Cell(&row.Row))
	}
	view := ansi.Strip(tr.View())
	if !slices.Contains(titles, "Probe") || !inOrder(view, titles) || !inOrder(view, cells) {
		t.Errorf("want the titles %q and the cells %q in\n%s", titles, cells, view)
	}

	var labels []string
	for _, f := range row.Fields(viewstest.Now) {
		labels = append(labels, f.Label)
		if f.Label == "Status" && f.Tone != widget.TonePass {
			t.Errorf("a mined claim's status %q in tone %v, want pass", f.Value, f.Tone)
		}
	}
	want := []string{"Transaction", "Kind", "Status", "Allocation", "Amount", "Contract", "Function", "Fee sent", "Block", "Confirmations", "Gas used", "Created", "Profile", "Probe"}
	if !slices.Equal(labels, want) {
		t.Errorf("details %q, want %q", labels, want)
	}
}

// inOrder says whether a line of text holds every part, in order.
func inOrder(text string, parts []string) bool {
	for _, line := range strings.Split(text, "\n") {
		at, found := 0, true
		for _, p := range parts {
			i := strings.Index(line[at:], p)
			if i < 0 {
				found = false
				break
			}
			at += i + len(p)
		}
		if found {
			return true
		}
	}
	return false
}

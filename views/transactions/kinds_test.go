package transactions

import (
	"io"
	"slices"
	"testing"
	"time"

	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/txlog"
	"allot/core/write"
	"allot/core/write/writetest"
	"allot/views"
	"allot/views/reopen"
	"allot/views/widget"
)

// TestEveryKindOfWrite: a write of every kind the registry knows
// (core/write), its answer lost, is listed UNKNOWN under its kind's
// label, its details say what it asked for as its kind describes it, and
// it opens again from here.
func TestEveryKindOfWrite(t *testing.T) {
	s, err := embedded.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := &views.Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard},
		Token: s.TokenIDs[0], Journal: j, Recorder: s.Recorder(j)}
	sent := writetest.Lost(t, ctx.Recorder)
	rows, err := Read(j, s.Deployment())
	if err != nil || len(rows) != len(sent) {
		t.Fatalf("Transactions lists %d rows (%v), want one of each of the %d kinds", len(rows), err, len(sent))
	}
	for _, r := range rows {
		k, ok := write.Of(r.Op)
		if !ok {
			t.Errorf("a row of %q, which is no kind of write", r.Op)
			continue
		}
		if r.Kind != k.Label(r.Ref) || r.Status != txlog.StatusUnknown || r.Body == nil {
			t.Errorf("%s: listed as %q, %s, reopens %v; want %q, UNKNOWN, reopens", r.Op, r.Kind, r.Status, r.Body != nil, k.Label(r.Ref))
		}
		fields := r.Fields(ctx.Now())
		for _, f := range k.Describe(r.Ref, r.Body) {
			if !slices.Contains(fields, widget.Field{Label: f.Label, Value: f.Value}) {
				t.Errorf("%s: the details %+v do not say %+v", r.Op, fields, f)
			}
		}
		if reopen.Unknown(ctx, r.Op, r.Ref, r.Write, r.Body, r.At) == nil {
			t.Errorf("%s: does not open again", r.Op)
		}
	}
}

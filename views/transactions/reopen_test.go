package transactions

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/txlog"
	"allot/views"
	"allot/views/reopen"
	"allot/views/widget"
	"allot/viewstest"
)

// TestReopenEveryKind: an UNKNOWN creative registration, creative upload
// URL or claim request opens from Transactions, as transactions and
// schedules do: the page shows the exact body sent and what the check
// found (and settles the write in the journal). A write the service
// applied is not sent again; one it did not is sent again, with the same
// bytes, only after r and a yes (n sends nothing); an upload URL is not
// sent again from here.
func TestReopenEveryKind(t *testing.T) {
	s, err := embedded.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	fx := s.Fixtures
	lost := &api.OutcomeUnknownError{Op: "write", Err: io.ErrUnexpectedEOF}
	// upload puts a file where a registration can name it.
	upload := func(name string) string {
		up, err := s.API.CreativeUploadURL(context.Background(), api.UploadURLRequest{FileName: name, ContentType: "image/png", PortalSlug: fx.PortalSlug})
		if err != nil {
			t.Fatal(err)
		}
		file := []byte("\x89PNG a creative")
		if err := s.API.Upload(context.Background(), up.UploadURL, "image/png", bytes.NewReader(file), int64(len(file))); err != nil {
			t.Fatal(err)
		}
		return up.StorageKey
	}
	for _, tc := range []struct {
		name, op, kind, shown string
		// write sends the write through rec, applied or not, and loses
		// its answer.
		write  func(rec *act.Recorder, apply bool) string
		resend bool
	}{
		{"creative registration", act.OpCreative, "creative", "storageKey", func(rec *act.Recorder, apply bool) string {
			req := api.CreateCreativeRequest{StorageKey: upload("logo.png"), Name: "Logo"}
			rec.Write(act.OpCreative, "logo.png", req, func() (string, any, error) {
				if apply {
					s.API.CreateCreative(context.Background(), req)
				}
				return "", nil, lost
			})
			return req.StorageKey
		}, true},
		{"creative upload URL", act.OpUploadURL, "creative upload URL", "contentType", func(rec *act.Recorder, apply bool) string {
			req := api.UploadURLRequest{FileName: "logo.png", ContentType: "image/png", PortalSlug: fx.PortalSlug}
			rec.Write(act.OpUploadURL, "logo.png", req, func() (string, any, error) {
				if apply {
					s.API.CreativeUploadURL(context.Background(), req)
				}
				return "", nil, lost
			})
			return fx.PortalSlug
		}, false},
		{"claim request", act.OpClaim, "claim request", "sender", func(rec *act.Recorder, apply bool) string {
			req := api.ClaimRequest{Sender: fx.Wallets[0].Address}
			rec.Write(act.OpClaim, fx.AllocationIDs[0], req, func() (string, any, error) {
				if apply {
					s.API.Claim(context.Background(), fx.AllocationIDs[0], req)
				}
				return "", nil, lost
			})
			return fx.Wallets[0].Address
		}, true},
	} {
		for _, apply := range []bool{true, false} {
			t.Run(tc.name+map[bool]string{true: "/applied", false: "/not applied"}[apply], func(t *testing.T) {
				j, err := journal.Open(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				ctx := &views.Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard},
					Token: s.TokenIDs[0], Journal: j, Recorder: s.Recorder(j)}
				inBody := tc.write(ctx.Recorder, apply)
				rows, err := Read(j, s.Deployment())
				if err != nil || len(rows) != 1 || rows[0].Status != txlog.StatusUnknown || rows[0].Body == nil {
					t.Fatalf("Transactions: %+v, %v; want one UNKNOWN row that reopens", rows, err)
				}
				r := rows[0]
				scr := reopen.Unknown(ctx, r.Op, r.Ref, r.Write, r.Body, r.At)
				if scr == nil {
					t.Fatal("the row does not reopen")
				}
				d := viewstest.NewSyncDriver(t, scr, 100, 40)
				v := strings.Join(strings.Fields(ansi.Strip(scr.View())), " ")
				found := map[bool]string{true: "Checked: the service applied it", false: "Checked: the service did not apply it"}[apply]
				if !strings.Contains(v, "Outcome unknown: "+tc.kind) || !strings.Contains(v, found) ||
					!strings.Contains(v, `"`+tc.shown+`": `) || !strings.Contains(v, inBody) {
					t.Fatalf("the reopened page does not show the body and %q:\n%s", found, scr.View())
				}
				settled := map[bool]string{true: act.StatusApplied, false: act.StatusNotApplied}[apply]
				if rows, _ := Read(j, s.Deployment()); len(rows) != 1 || rows[0].Status != settled {
					t.Errorf("after the check, Transactions lists %+v, want %q", rows, settled)
				}
				requests := func() int {
					res, _ := j.Read()
					return len(journal.Writes(res.Entries))
				}
				d.Keys("r")
				asked := strings.Contains(scr.View(), "Send this request again?")
				if want := tc.resend && !apply; asked != want {
					t.Fatalf("r asks to send again: %v, want %v:\n%s", asked, want, scr.View())
				}
				if !asked {
					if requests() != 1 {
						t.Fatal("r sent the write again")
					}
					return
				}
				d.Keys("n")
				if requests() != 1 || strings.Contains(scr.View(), "Send this request again?") {
					t.Fatalf("n: %d writes journaled, view:\n%s", requests(), scr.View())
				}
				d.Keys("r")
				d.Keys("y")
				res, _ := j.Read()
				writes := journal.Writes(res.Entries)
				if len(writes) != 2 || !bytes.Equal(writes[1].Request.Data, writes[0].Request.Data) || !writes[1].Settled() {
					t.Fatalf("r, y: journaled %+v, want the same body once more, answered", writes)
				}
				if !writes[0].Settled() {
					t.Errorf("the first request is %q after it was sent again", writes[0].Outcome.Status)
				}
				if v := ansi.Strip(scr.View()); !strings.Contains(v, map[string]string{act.OpCreative: "Public URL", act.OpClaim: "Nothing was signed"}[tc.op]) {
					t.Errorf("the answer of the resend is not shown:\n%s", v)
				}
			})
		}
	}
}

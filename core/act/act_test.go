package act

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"allot/api"
	"allot/core/journal"
)

func newRecorder(t *testing.T) (*Recorder, *journal.Journal) {
	t.Helper()
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &Recorder{Journal: j, Deployment: journal.Deployment{Profile: "test"}}, j
}

// TestWriteOutcomes: the request is journaled before it is sent, and the
// outcome after; an answer that never came, or came unreadable from a
// gateway or as a broken success, is "unknown", never "failed".
func TestWriteOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status string
	}{
		{"answered", nil, "PENDING"},
		{"refused", &api.ValidationError{Remote: true, Fields: []api.FieldError{{Path: "x", Message: "bad"}}}, "failed"},
		{"lost", &api.OutcomeUnknownError{Op: "transactions/create", Err: errors.New("connection reset")}, StatusUnknown},
		{"broken success", &api.UnexpectedResponseError{Op: "transactions/create", Status: 200, Reason: "malformed JSON"}, StatusUnknown},
		{"gateway page", &api.UnexpectedResponseError{Op: "transactions/create", Status: 502, Reason: "HTML"}, StatusUnknown},
		{"client error page", &api.UnexpectedResponseError{Op: "transactions/create", Status: 404, Reason: "HTML"}, "failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, j := newRecorder(t)
			var journaledFirst bool
			err := rec.Write("transactions/create", "INITIALIZE", map[string]string{"contractId": "c"}, func() (string, any, error) {
				res, _ := j.Read()
				journaledFirst = len(res.Entries) == 1 && res.Entries[0].Kind == journal.KindRequest
				if tc.err != nil {
					return "", nil, tc.err
				}
				return "PENDING", map[string]string{"ok": "yes"}, nil
			})
			if !errors.Is(err, tc.err) {
				t.Errorf("error %v, want %v", err, tc.err)
			}
			if tc.status == StatusUnknown && !strings.Contains(err.Error(), "find out whether it was before sending it again") {
				t.Errorf("an unknown outcome does not say to find out first: %v", err)
			}
			if !journaledFirst {
				t.Error("the request was not journaled before it was sent")
			}
			res, _ := j.Read()
			if len(res.Entries) != 2 {
				t.Fatalf("%d entries", len(res.Entries))
			}
			req, out := res.Entries[0], res.Entries[1]
			if string(req.Data) != `{"contractId":"c"}` || req.Profile != "test" || req.Ref != "INITIALIZE" {
				t.Errorf("request entry %+v", req)
			}
			if out.Kind != journal.KindOutcome || out.Status != tc.status {
				t.Errorf("outcome %s %q, want %q", out.Kind, out.Status, tc.status)
			}
		})
	}
}

// TestWriteNotSentWhenJournalFails: an act the journal cannot record does
// not happen.
func TestWriteNotSentWhenJournalFails(t *testing.T) {
	dir := t.TempDir()
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A directory where the journal file should be makes every append fail.
	if err := os.Mkdir(filepath.Join(dir, journal.FileName), 0o700); err != nil {
		t.Skip("the journal file already exists:", err)
	}
	rec := &Recorder{Journal: j}
	sent := false
	err = rec.Write("schedules/create", "x", struct{}{}, func() (string, any, error) { sent = true; return "", nil, nil })
	if sent || !errors.Is(err, ErrJournal) {
		t.Fatalf("sent %v, err %v", sent, err)
	}
}

// TestZeroRecorder: without a journal, acts go on unrecorded.
func TestZeroRecorder(t *testing.T) {
	var rec *Recorder
	sent := false
	if err := rec.Write("op", "ref", nil, func() (string, any, error) { sent = true; return "", nil, nil }); err != nil || !sent {
		t.Fatalf("sent %v, err %v", sent, err)
	}
}

// TestStoredName: the content's hash goes before the extension, so that
// two files of one name are stored apart and never replace each other;
// the name stays within the 128 characters of docs/deployment.md D12.
func TestStoredName(t *testing.T) {
	a, _ := StoredName("logo.png", strings.NewReader("one"))
	b, _ := StoredName("logo.png", strings.NewReader("two"))
	again, _ := StoredName("logo.png", strings.NewReader("one"))
	if a == b || a != again || !strings.HasPrefix(a, "logo-") || !strings.HasSuffix(a, ".png") || len(a) != len("logo-12345678.png") {
		t.Errorf("stored names %q, %q, %q", a, b, again)
	}
	long, _ := StoredName(strings.Repeat("x", 125)+".webm", strings.NewReader("x"))
	if len(long) != maxFileName || !strings.HasSuffix(long, ".webm") {
		t.Errorf("long name %q (%d)", long, len(long))
	}
	if err := (api.UploadURLRequest{FileName: long, ContentType: "video/webm", PortalSlug: "p"}).Validate(); err != nil {
		t.Errorf("the stored name breaks the rules of docs/deployment.md D12: %v", err)
	}
}

package act_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/write"
	"allot/core/write/writetest"
)

// TestResendSendsTheSameBytes: a write of every kind whose answer was
// lost is sent again as its kind says, journaled as a write of its own
// with exactly the bytes of the first; a kind that is not sent again (an
// upload URL), or a body that is not as sent, is refused before anything
// is journaled.
func TestResendSendsTheSameBytes(t *testing.T) {
	s, err := embedded.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	j, err := journal.Open(s.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	rec := s.Recorder(j)
	requests := func() []journal.Write { return journal.Writes(journaltest.Entries(t, s.StateDir)) }
	for _, sent := range writetest.Lost(t, rec) {
		k, _ := write.Of(sent.Op)
		before := len(requests())
		_, err := rec.Resend(context.Background(), s.API, sent)
		var refused *write.NotResentError
		if k.NoResend != "" {
			if !errors.As(err, &refused) || len(requests()) != before {
				t.Errorf("%s: resent (%v) though its kind is not sent again", sent.Op, err)
			}
			continue
		}
		// The samples name nothing the sandbox holds: it answers, and
		// refuses most; what matters is what was sent.
		written := requests()
		if len(written) != before+1 {
			t.Fatalf("%s: %d writes journaled, want one more", sent.Op, len(written)-before)
		}
		again := written[len(written)-1]
		if again.Request.Op != sent.Op || again.Request.Ref != sent.Ref || !bytes.Equal(again.Request.Data, sent.Body) || !again.Settled() {
			t.Errorf("%s: journaled %+v, want the same bytes about %q, answered (%v)", sent.Op, again, sent.Ref, err)
		}
		altered := sent
		altered.Body = append([]byte(" "), sent.Body...)
		if _, err := rec.Resend(context.Background(), s.API, altered); !errors.As(err, &refused) || len(requests()) != len(written) {
			t.Errorf("%s: a body not as sent was resent: %v", sent.Op, err)
		}
	}
	if _, err := rec.Resend(context.Background(), s.API, act.Sent{Op: "signin"}); err == nil {
		t.Error("an operation of no kind was resent")
	}
}

package act_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/core/write"
)

// TestWritesUnderFaults sends each kind of write through its act workflow
// (the one the command line and the dashboard share) into a sandbox that
// faults the answers. Whatever the fault, the service applied no more of
// the writes than the user confirmed, and a write it applied is reported as
// done or as unknown, never as failed, in the error and in the journal
// alike. An unknown one is then checked: the check says what the sandbox
// did, and settles the write in the journal.
func TestWritesUnderFaults(t *testing.T) {
	faults := []struct {
		name    string
		faults  sandbox.Faults
		timeout time.Duration
	}{
		{"reset", sandbox.Faults{Reset: 1, Seed: 7}, time.Minute},
		{"malformed", sandbox.Faults{Malformed: 1, Seed: 7}, time.Minute},
		{"html", sandbox.Faults{HTML: 1, Seed: 7}, time.Minute},
		{"error", sandbox.Faults{Error: 1, Seed: 7}, time.Minute},
		// Any latency past the timeout makes the answer late, however
		// slow the machine: the timeout runs from before the request is
		// sent, the latency from when the sandbox has it.
		{"latency past the timeout", sandbox.Faults{Latency: time.Second}, 300 * time.Millisecond},
	}
	n := func(s string) api.Number { v, _ := api.ParseAmount(s); return v }
	writes := []struct {
		op string
		// send confirms and sends the write, as often as it takes for
		// one to be faulted (a registration needs an upload first, which
		// the faults hit too).
		send func(t *testing.T, ctx context.Context, r *act.Recorder, s *session.Session) error
	}{
		{act.OpTransaction, func(t *testing.T, ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.CreateTransaction(ctx, s.API, &api.InitializeRequest{ContractID: s.Fixtures.ContractIDs[0], AdminWalletID: s.Fixtures.ContractIDs[0]})
			return err
		}},
		{act.OpSchedule, func(t *testing.T, ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.CreateSchedule(ctx, s.API, api.ScheduleRequest{TokenID: s.TokenIDs[0], Name: "Team", Description: "4 years",
				UnlockAtStart: n("0"), Cliff: api.CliffRequest{Value: n("0.25"), Duration: n("12")}, RoundingMode: "FLOOR",
				Pieces: []api.SchedulePiece{{Name: "monthly", Portion: n("0.75"), StartDelay: api.ValueOf{Value: n("12")},
					Periodic: &api.PeriodConf{Length: api.ValueOf{Value: n("36")}, Frequency: api.ValueOf{Value: n("1")}, DayOfMonth: 1}}}})
			return err
		}},
		{act.OpUploadURL, func(t *testing.T, ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.CreativeUploadURL(ctx, s.API, "logo.png", api.UploadURLRequest{FileName: "logo.png", ContentType: "image/png", PortalSlug: s.Fixtures.PortalSlug})
			return err
		}},
		{act.OpCreative, registerCreative},
		{act.OpClaim, func(t *testing.T, ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.RequestClaim(ctx, s.API, s.Fixtures.AllocationIDs[0], api.ClaimRequest{Sender: s.Fixtures.Wallets[0].Address})
			return err
		}},
	}
	// Every kind of write the registry knows is sent here.
	tested := map[string]bool{}
	for _, w := range writes {
		tested[w.op] = true
	}
	for _, k := range write.Kinds() {
		if !tested[k.Op] {
			t.Errorf("%s, a kind of write, is not sent under faults here", k.Op)
		}
	}
	for _, f := range faults {
		for _, w := range writes {
			t.Run(f.name+"/"+w.op, func(t *testing.T) {
				t.Parallel() // each on a sandbox of its own, mostly waiting for it
				faults := f.faults
				if w.op == act.OpCreative && faults.Latency == 0 {
					// Half the answers: the upload before it gets through.
					faults.Reset, faults.Malformed, faults.HTML, faults.Error = faults.Reset/2, faults.Malformed/2, faults.HTML/2, faults.Error/2
				}
				s, err := embedded.Sandbox(sandbox.Options{Faults: faults}, t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(s.Close)
				j, err := journal.Open(s.StateDir)
				if err != nil {
					t.Fatal(err)
				}
				rec := s.Recorder(j)
				ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
				defer cancel()
				err = w.send(t, ctx, rec, s)
				if err == nil {
					t.Fatal("the answer is faulted, yet the write succeeded")
				}
				journaled := func() (map[string]journal.Write, journal.Write) {
					written := map[string]journal.Write{} // by the body's SHA-256
					var last journal.Write
					for _, jw := range journal.Writes(journaltest.Entries(t, s.StateDir)) {
						if jw.Request.Op == w.op {
							written[sha(jw.Request.Data)], last = jw, jw
						}
					}
					return written, last
				}
				_, last := journaled()
				if last.Outcome == nil {
					t.Fatalf("no outcome journaled for %+v", last.Request)
				}
				if act.Unknown(err) != !last.Settled() {
					t.Errorf("the error (%v) and the journal (%q) disagree", err, last.Outcome.Status)
				}
				var unknown *act.UnknownError
				var v act.Verdict
				if errors.As(err, &unknown) {
					// The check waits for the sandbox to end the request:
					// past a timeout, it may apply the write after the
					// client gave up.
					if v, err = rec.Check(context.Background(), unknown.Sent()); err != nil {
						t.Fatal(err)
					}
				}
				written, last := journaled()
				applied := appliedOf(s, w.op)
				if len(applied) > len(written) {
					t.Fatalf("the sandbox applied %d writes of %s, the user confirmed %d", len(applied), w.op, len(written))
				}
				for sum := range applied {
					jw, ok := written[sum]
					if !ok || jw.Outcome == nil || jw.Outcome.Status == "failed" || jw.Outcome.Status == act.StatusNotApplied {
						t.Errorf("the service applied a write the journal does not show as done or unknown: %+v", jw)
					}
				}
				if unknown == nil {
					return
				}
				want, status := act.NotApplied, act.StatusNotApplied
				if applied[sha(last.Request.Data)] {
					want, status = act.Applied, act.StatusApplied
				}
				if v.Check != want {
					t.Errorf("the check found %v, the sandbox's journal says %v", v.Check, want)
				}
				if !last.Settled() || last.Outcome.Status != status {
					t.Errorf("the check did not settle the write in the journal: %+v", last.Outcome)
				}
			})
		}
	}
}

// registerCreative uploads a file and registers it, until a registration
// fails: the upload URL and the upload before it are faulted too, and
// tried again until they get through (at most 50 times), with time for the
// latency; the registration has ctx's time.
func registerCreative(t *testing.T, ctx context.Context, r *act.Recorder, s *session.Session) error {
	file := []byte("\x89PNG\r\n\x1a\n a creative")
	for i := range 50 {
		long, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		name := fmt.Sprintf("logo-%d.png", i)
		up, err := r.CreativeUploadURL(long, s.API, name, api.UploadURLRequest{FileName: name, ContentType: "image/png", PortalSlug: s.Fixtures.PortalSlug})
		if err != nil {
			continue
		}
		if s.API.Upload(long, up.UploadURL, "image/png", bytes.NewReader(file), int64(len(file))) != nil {
			continue
		}
		if _, err := r.RegisterCreative(ctx, s.API, name, api.CreateCreativeRequest{StorageKey: up.StorageKey, Name: "Logo"}); err != nil {
			return err
		}
	}
	t.Fatal("no registration failed in 50 tries")
	return nil
}

// appliedOf is the set of bodies (by SHA-256) of the writes of op the
// sandbox applied.
func appliedOf(s *session.Session, op string) map[string]bool {
	out := map[string]bool{}
	for _, e := range s.Applied() {
		if e.Operation == op || op == act.OpClaim && strings.HasPrefix(e.Operation, "allocations/") {
			out[e.BodySHA256] = true
		}
	}
	return out
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

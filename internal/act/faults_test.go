package act_test

import (
	"context"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/internal/act"
	"allot/internal/journal"
	"allot/internal/journal/journaltest"
	"allot/internal/session"
)

// TestWritesUnderFaults sends each kind of write once through its act
// workflow (the one the command line and the dashboard share) into a
// sandbox that faults every answer. Whatever the fault, the service applied
// at most the one write the user confirmed, and a write it applied is
// reported as done or as unknown, never as failed, in the error and in
// the journal alike.
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
		{"latency past the timeout", sandbox.Faults{Latency: 2 * time.Second}, 300 * time.Millisecond},
	}
	n := func(s string) api.Number { v, _ := api.ParseAmount(s); return v }
	writes := []struct {
		op   string
		send func(ctx context.Context, r *act.Recorder, s *session.Session) error
	}{
		{act.OpTransaction, func(ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.CreateTransaction(ctx, s.API, &api.InitializeRequest{ContractID: s.Fixtures.ContractIDs[0], AdminWalletID: s.Fixtures.ContractIDs[0]})
			return err
		}},
		{act.OpSchedule, func(ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.CreateSchedule(ctx, s.API, api.ScheduleRequest{TokenID: s.TokenIDs[0], Name: "Team", Description: "4 years",
				UnlockAtStart: n("0"), Cliff: api.CliffRequest{Value: n("0.25"), Duration: n("12")}, RoundingMode: "FLOOR",
				Pieces: []api.SchedulePiece{{Name: "monthly", Portion: n("0.75"), StartDelay: api.ValueOf{Value: n("12")},
					Periodic: &api.PeriodConf{Length: api.ValueOf{Value: n("36")}, Frequency: api.ValueOf{Value: n("1")}, DayOfMonth: 1}}}})
			return err
		}},
		{act.OpUploadURL, func(ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.CreativeUploadURL(ctx, s.API, "logo.png", api.UploadURLRequest{FileName: "logo.png", ContentType: "image/png", PortalSlug: s.Fixtures.PortalSlug})
			return err
		}},
		{act.OpClaim, func(ctx context.Context, r *act.Recorder, s *session.Session) error {
			_, err := r.RequestClaim(ctx, s.API, s.Fixtures.AllocationIDs[0], api.ClaimRequest{Sender: s.Fixtures.Wallets[0].Address})
			return err
		}},
	}
	for _, f := range faults {
		for _, w := range writes {
			t.Run(f.name+"/"+w.op, func(t *testing.T) {
				s, err := session.Sandbox(sandbox.Options{Faults: f.faults}, t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(s.Close)
				j, err := journal.Open(s.StateDir)
				if err != nil {
					t.Fatal(err)
				}
				rec := &act.Recorder{Journal: j, Deployment: s.Deployment()}
				ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
				defer cancel()
				err = w.send(ctx, rec, s)
				if err == nil {
					t.Fatal("every answer is faulted, yet the write succeeded")
				}
				applied := 0
				for _, e := range s.Applied() {
					if e.Operation != "auth/signin" {
						applied++
					}
				}
				writes := journal.Writes(journaltest.Entries(t, s.StateDir))
				if applied > 1 || len(writes) != 1 || writes[0].Outcome == nil {
					t.Fatalf("applied %d, journaled %+v; want at most one applied, one journaled with its outcome", applied, writes)
				}
				if applied == 1 && (!act.Unknown(err) || writes[0].Settled()) {
					t.Errorf("the service applied the write, yet it is reported as failed (%v), journaled %q", err, writes[0].Outcome.Status)
				}
				if act.Unknown(err) != !writes[0].Settled() {
					t.Errorf("the error (%v) and the journal (%q) disagree", err, writes[0].Outcome.Status)
				}
			})
		}
	}
}

package act

import (
	"context"
	"errors"
	"testing"

	"allot/api"
	"allot/wallet"
)

// TestReadOnlyRecorderActsOnNothing: a read-only recorder refuses every
// act before it is journaled or sent: a write, a signature, a sending.
func TestReadOnlyRecorderActsOnNothing(t *testing.T) {
	rec, j := newRecorder(t)
	refusal := errors.New("profile p is read-only")
	rec.ReadOnly = refusal
	sent := false
	if err := rec.Write("transactions/create", "INITIALIZE", struct{}{}, func() (string, any, error) { sent = true; return "", nil, nil }); err != refusal || sent {
		t.Errorf("write: sent %v, %v", sent, err)
	}
	if _, err := rec.CreateSchedule(context.Background(), nil, api.ScheduleRequest{}); err != refusal {
		t.Errorf("schedule: %v", err)
	}
	if _, err := rec.Sign(Batch{Drafts: []*wallet.Draft{{}}, Ops: []string{"claim"}}, nil); err != refusal {
		t.Errorf("sign: %v", err)
	}
	if _, err := rec.Send(context.Background(), nil, "s", []Signed{{Op: "claim"}}); err != refusal {
		t.Errorf("send: %v", err)
	}
	if _, err := rec.SignIn(context.Background(), nil, "message", nil); err != refusal {
		t.Errorf("sign in: %v", err)
	}
	if res, _ := j.Read(); len(res.Entries) != 0 {
		t.Errorf("journaled %d entries", len(res.Entries))
	}
}

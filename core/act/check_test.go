package act

import (
	"context"
	"errors"
	"strings"
	"testing"

	"allot/api"
	"allot/core/journal"
)

// fakeLedger applies the bodies it is told to, after the marks it gives.
type fakeLedger struct{ applied [][]byte }

func (l *fakeLedger) Mark() int { return len(l.applied) }

func (l *fakeLedger) AppliedAfter(_ context.Context, mark int, _, _ string, body []byte) (bool, error) {
	for _, b := range l.applied[mark:] {
		if string(b) == string(body) {
			return true, nil
		}
	}
	return false, nil
}

// TestCheckSettles: a check tells what the ledger says of a write whose
// answer was lost, only after the write's own mark (the same body applied
// before does not count), and settles it in the journal; without a ledger,
// or for a write sent by another recorder (an earlier run), it cannot tell
// and settles nothing.
func TestCheckSettles(t *testing.T) {
	lost := &api.OutcomeUnknownError{Op: OpTransaction, Err: errors.New("connection reset")}
	body := map[string]string{"contractId": "c"}
	send := func(rec *Recorder, l *fakeLedger, apply bool) Sent {
		t.Helper()
		err := rec.Write(OpTransaction, "INITIALIZE", body, func() (string, any, error) {
			if apply {
				l.applied = append(l.applied, []byte(`{"contractId":"c"}`))
			}
			return "", nil, lost
		})
		var unknown *UnknownError
		if !errors.As(err, &unknown) {
			t.Fatalf("not unknown: %v", err)
		}
		return unknown.Sent()
	}
	last := func(j *journal.Journal) journal.Write {
		res, _ := j.Read()
		w := journal.Writes(res.Entries)
		return w[len(w)-1]
	}
	for _, tc := range []struct {
		name   string
		apply  bool
		want   Check
		status string
	}{
		{"applied", true, Applied, StatusApplied},
		{"not applied", false, NotApplied, StatusNotApplied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, j := newRecorder(t)
			l := &fakeLedger{applied: [][]byte{[]byte(`{"contractId":"c"}`)}} // the same body, applied before
			rec.Ledger = l
			v, err := rec.Check(context.Background(), send(rec, l, tc.apply))
			if err != nil || v.Check != tc.want {
				t.Fatalf("check: %v, %v; want %v", v, err, tc.want)
			}
			if w := last(j); !w.Settled() || w.Outcome.Status != tc.status {
				t.Errorf("journal: %+v, want settled as %q", w.Outcome, tc.status)
			}
		})
	}
	t.Run("no ledger", func(t *testing.T) {
		rec, j := newRecorder(t)
		v, _ := rec.Check(context.Background(), send(rec, &fakeLedger{}, true))
		if v.Check != CannotTell || v.Reason == "" || last(j).Settled() {
			t.Errorf("check %+v, journal %+v: want cannot tell, with a reason, unsettled", v, last(j).Outcome)
		}
	})
	t.Run("an earlier run", func(t *testing.T) {
		earlier, j := newRecorder(t)
		l := &fakeLedger{}
		earlier.Ledger = l
		sent := send(earlier, l, true)
		later := &Recorder{Journal: j, Ledger: l}
		v, _ := later.Check(context.Background(), sent)
		if v.Check != CannotTell || last(j).Settled() {
			t.Errorf("check %+v, journal %+v: want cannot tell, unsettled", v, last(j).Outcome)
		}
	})
}

// TestResentSettlesUnknown: sending a write whose outcome is unknown again
// settles the first as resent; one a check settled keeps what it found.
func TestResentSettlesUnknown(t *testing.T) {
	rec, j := newRecorder(t)
	lost := &api.OutcomeUnknownError{Op: OpTransaction, Err: errors.New("connection reset")}
	var sent []Sent
	for range 2 {
		err := rec.Write(OpTransaction, "INITIALIZE", map[string]string{"contractId": "c"}, func() (string, any, error) { return "", nil, lost })
		var unknown *UnknownError
		if !errors.As(err, &unknown) {
			t.Fatal(err)
		}
		sent = append(sent, unknown.Sent())
	}
	rec.Settle(sent[1].Op, sent[1].Ref, sent[1].Write, StatusNotApplied)
	rec.Resent(sent[0])
	rec.Resent(sent[1])
	res, _ := j.Read()
	w := journal.Writes(res.Entries)
	if len(w) != 2 || w[0].Outcome.Status != StatusResent || w[1].Outcome.Status != StatusNotApplied {
		t.Fatalf("outcomes %q, %q; want %q, %q", w[0].Outcome.Status, w[1].Outcome.Status, StatusResent, StatusNotApplied)
	}
}

// TestCheckWithoutLedgerSaysWhatItCannot: on a deployment without a
// ledger (a real one, or `allot sandbox` over HTTP) the check says, for
// each kind of write, that the service's interface reads none back, and
// what that leaves: for a claim request, that no tokens moved. Before, it
// said only that the interface cannot tell, whatever the write.
func TestCheckWithoutLedgerSaysWhatItCannot(t *testing.T) {
	rec := &Recorder{}
	for op, want := range map[string]string{
		OpTransaction: "creates transactions and has no operation that lists or reads one back",
		OpSchedule:    "a second one may be created",
		OpCreative:    "registered twice",
		OpUploadURL:   "changes nothing by itself",
		OpClaim:       "no tokens moved for this request",
	} {
		v, err := rec.Check(context.Background(), Sent{Op: op, Write: "w1"})
		if err != nil || v.Check != CannotTell || !strings.Contains(v.Reason, want) ||
			!strings.Contains(v.Reason, "cannot say whether it applied") {
			t.Errorf("%s: %+v, %v; want it to say %q", op, v, err, want)
		}
	}
}

package transactions

import (
	"encoding/json"
	"testing"
	"time"

	"allot/api"
	"allot/core/act"
	"allot/core/journal"
	"allot/core/txlog"
)

// TestReadRows: what the screen lists of each thing the journal tells: a
// write's kind by its operation, a transaction's by its action, a chain
// transaction's by its action or "chain"; how a lost answer was settled in
// the id; UNKNOWN writes with the body that can be sent again, and none
// when it cannot.
func TestReadRows(t *testing.T) {
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := journal.Deployment{Profile: "p", BaseURL: "http://x", ChainID: 1}
	claim := json.RawMessage(`{"sender":"0x00000000000000000000000000000000000000a1"}`)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i, e := range []journal.Entry{
		{Kind: journal.KindRequest, Op: act.OpTransaction, Ref: api.ActionInitialize, Write: "w1", Data: json.RawMessage(`{}`)},
		{Kind: journal.KindOutcome, Op: act.OpTransaction, Ref: api.ActionInitialize, Write: "w1", Status: "ok",
			Data: json.RawMessage(`{"transactions":[{"transactionId":"t1","status":"PENDING"}]}`)},
		{Kind: journal.KindRequest, Op: act.OpSchedule, Ref: "a", Write: "w2"},
		{Kind: journal.KindOutcome, Op: act.OpSchedule, Ref: "a", Write: "w2", Status: act.StatusUnknown},
		{Kind: journal.KindOutcome, Op: act.OpSchedule, Ref: "a", Write: "w2", Status: act.StatusApplied},
		{Kind: journal.KindRequest, Op: act.OpCreative, Ref: "b", Write: "w3"},
		{Kind: journal.KindOutcome, Op: act.OpCreative, Ref: "b", Write: "w3", Status: act.StatusNotApplied},
		{Kind: journal.KindRequest, Op: act.OpUploadURL, Ref: "c", Write: "w4"},
		{Kind: journal.KindOutcome, Op: act.OpUploadURL, Ref: "c", Write: "w4", Status: act.StatusResent},
		{Kind: journal.KindRequest, Op: act.OpClaim, Ref: "d", Write: "w5", Data: claim},
		{Kind: journal.KindOutcome, Op: act.OpClaim, Ref: "d", Write: "w5", Status: act.StatusUnknown},
		{Kind: journal.KindRequest, Op: act.OpClaim, Ref: "e", Write: "w6", Data: json.RawMessage(`{"unexpected":true}`)},
		{Kind: journal.KindTransaction, Ref: "0xaa", Status: "mined", Data: json.RawMessage(`{"block":3}`)},
	} {
		e.At = at.Add(time.Duration(i) * time.Minute)
		if err := j.Append(d.Stamp(e)); err != nil {
			t.Fatal(i, err)
		}
	}
	rows, err := Read(j, d)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, kind, status, body string }{
		{"0xaa", "chain", "mined", ""},
		{"(no outcome recorded: may have been created)", "claim request", txlog.StatusUnknown, ""},
		{"(no answer: may have been created)", "claim request", txlog.StatusUnknown, string(claim)},
		{"(no answer: may have been created; sent again)", "creative upload URL", act.StatusResent, ""},
		{"(not created)", "creative", act.StatusNotApplied, ""},
		{"(created; its id was lost with the answer)", "schedule", act.StatusApplied, ""},
		{"t1", api.ActionInitialize, api.TransactionCreated, ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.ID != w.id || r.Kind != w.kind || r.Status != w.status || string(r.Body) != w.body {
			t.Errorf("row %d: %q %q %q body %s, want %q %q %q body %s", i, r.ID, r.Kind, r.Status, r.Body, w.id, w.kind, w.status, w.body)
		}
	}
	if rows[0].Block != 3 || rows[0].StatusText() != "mined, block 3" {
		t.Errorf("chain row %+v", rows[0])
	}
}

package journal

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"allot/core/write"
)

// TestTransactions: what a deployment's journal lists, newest first: the
// service's transactions as shown (PENDING is CREATED), writes a check
// settled or the user sent again, unknown writes (with or without an
// outcome, with their request), and chain transactions at their latest
// status; another deployment's entries and outcomes of answered writes
// that are not transactions are not listed.
func TestTransactions(t *testing.T) {
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	d := Deployment{Profile: "p", BaseURL: "http://x/", ChainID: 1}
	other := Deployment{Profile: "p", BaseURL: "http://y", ChainID: 1}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	body := json.RawMessage(`{"action":"initialize"}`)
	for i, e := range []Entry{
		d.Stamp(Entry{Kind: KindRequest, Op: write.OpTransaction, Ref: "initialize", Write: "w1", Data: body}),
		d.Stamp(Entry{Kind: KindOutcome, Op: write.OpTransaction, Ref: "initialize", Write: "w1", Status: "ok",
			Data: json.RawMessage(`{"transactions":[{"transactionId":"t1","status":"PENDING"},{"transactionId":"t2","status":"FAILED"}]}`)}),
		d.Stamp(Entry{Kind: KindRequest, Op: write.OpSchedule, Ref: "s", Write: "w2", Data: json.RawMessage(`{"name":"s"}`)}),
		d.Stamp(Entry{Kind: KindOutcome, Op: write.OpSchedule, Ref: "s", Write: "w2", Status: "S-AAAAAAAA", Data: json.RawMessage(`{"key":"S-AAAAAAAA"}`)}),
		d.Stamp(Entry{Kind: KindRequest, Op: write.OpClaim, Ref: "c", Write: "w3", Data: json.RawMessage(`{"claim":1}`)}),
		d.Stamp(Entry{Kind: KindOutcome, Op: write.OpClaim, Ref: "c", Write: "w3", Status: StatusUnknown}),
		d.Stamp(Entry{Kind: KindRequest, Op: write.OpCreative, Ref: "k", Write: "w4", Data: json.RawMessage(`{"creative":1}`)}),
		d.Stamp(Entry{Kind: KindRequest, Op: write.OpUploadURL, Ref: "u", Write: "w5"}),
		d.Stamp(Entry{Kind: KindOutcome, Op: write.OpUploadURL, Ref: "u", Write: "w5", Status: StatusUnknown}),
		d.Stamp(Entry{Kind: KindOutcome, Op: write.OpUploadURL, Ref: "u", Write: "w5", Status: StatusResent}),
		d.Stamp(Entry{Kind: KindTransaction, Op: "claim", Ref: "0xaa", Status: "pending"}),
		other.Stamp(Entry{Kind: KindRequest, Op: write.OpClaim, Ref: "elsewhere", Write: "w6"}),
		other.Stamp(Entry{Kind: KindTransaction, Ref: "0xbb", Status: "pending"}),
		d.Stamp(Entry{Kind: KindTransaction, Op: "claim", Ref: "0xaa", Status: "reverted", Data: json.RawMessage(`{"block":7,"gasUsed":21000,"confirmations":2,"revertReason":"no"}`)}),
	} {
		e.At = at.Add(time.Duration(i) * time.Minute)
		if err := j.Append(e); err != nil {
			t.Fatal(i, err)
		}
	}
	got, warnings, err := j.Transactions(d)
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	type line struct {
		kind           TxKind
		id, op, status string
		noOutcome      bool
		request        string
		block          uint64
		revert         string
		minute         int
	}
	// Newest first, the journal's order breaking ties; a chain
	// transaction is dated by its first entry.
	want := []line{
		{TxChain, "0xaa", "claim", "reverted", false, "", 7, "no", 10},
		{TxSettled, "", write.OpUploadURL, StatusResent, false, "", 0, "", 9},
		{TxUnknown, "", write.OpCreative, StatusUnknown, true, `{"creative":1}`, 0, "", 6},
		{TxUnknown, "", write.OpClaim, StatusUnknown, false, `{"claim":1}`, 0, "", 5},
		{TxCreated, "t2", write.OpTransaction, "FAILED", false, string(body), 0, "", 1},
		{TxCreated, "t1", write.OpTransaction, "CREATED", false, string(body), 0, "", 1},
	}
	if len(got) != len(want) {
		t.Fatalf("%d transactions, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.kind || g.ID != w.id || g.Op != w.op || g.Status != w.status || g.NoOutcome != w.noOutcome ||
			(w.kind != TxSettled && w.kind != TxChain && string(g.Request) != w.request) || g.Block != w.block || g.RevertReason != w.revert ||
			!g.At.Equal(at.Add(time.Duration(w.minute)*time.Minute)) {
			t.Errorf("transaction %d: %+v\nwant %+v", i, g, w)
		}
	}

	// A torn last line: what was read is listed, and said so.
	f, err := os.OpenFile(j.Path(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"kind":"transac`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, warnings, err = j.Transactions(d)
	if err != nil || len(got) != len(want) || len(warnings) == 0 {
		t.Errorf("torn journal: %d transactions, warnings %v, err %v", len(got), warnings, err)
	}
	var none *Journal
	if _, _, err := none.Transactions(d); !errors.Is(err, ErrNoJournal) {
		t.Errorf("no journal: %v", err)
	}
}

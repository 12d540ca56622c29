package act

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/journal"
	"allot/wallet"
)

// TestRefusedIsJournaled: a refusal is recorded with its subject and every
// reason; an error that is not a refusal is not.
func TestRefusedIsJournaled(t *testing.T) {
	rec, j := newRecorder(t)
	refused := &wallet.RefusedError{Subject: "claim of allocation a", Reasons: []string{"call 1 is an UNLIMITED approve", "call 2 is a transfer"}}
	if err := rec.Refused("claim", "a", refused); !errors.Is(err, wallet.ErrRefused) {
		t.Errorf("Refused returned %v, want the refusal", err)
	}
	rec.Refused("claim", "b", errors.New("the node is down"))
	read, err := j.Read()
	if err != nil || len(read.Entries) != 1 {
		t.Fatalf("journal %+v, %v; want one entry", read.Entries, err)
	}
	e := read.Entries[0]
	var data struct {
		Subject string   `json:"subject"`
		Reasons []string `json:"reasons"`
	}
	if err := json.Unmarshal(e.Data, &data); err != nil || e.Kind != journal.KindRefusal || e.Op != "claim" || e.Ref != "a" ||
		data.Subject != refused.Subject || len(data.Reasons) != 2 {
		t.Errorf("entry %+v (%s): want the refusal of claim a with both reasons", e, e.Data)
	}
}

// TestSeen: the contracts a signature of the journal was for are seen;
// others are new.
func TestSeen(t *testing.T) {
	rec, j := newRecorder(t)
	vester, other := common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"), common.HexToAddress("0x01")
	data, _ := json.Marshal(map[string]any{"subject": "a", "summary": map[string]string{"to": vester.Hex()}})
	if err := j.Append(journal.Entry{Kind: journal.KindSignature, Op: "claim", Data: data}); err != nil {
		t.Fatal(err)
	}
	// A refusal names no contract as seen.
	rec.Refused("claim", "a", &wallet.RefusedError{Subject: "claim", Reasons: []string{other.Hex()}})
	seen := rec.Seen()
	if !seen(vester) || seen(other) {
		t.Errorf("seen(vester) = %v, seen(other) = %v; want true, false", seen(vester), seen(other))
	}
	if (&Recorder{}).Seen() != nil {
		t.Error("a recorder without a journal claims to know what it saw")
	}
}

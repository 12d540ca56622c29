package act

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/journal"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// TestSafeSignatureJournaledFirst: an owner's signature of a Safe
// transaction is journaled before it is made, with what it signs (the
// safeTxHash, the Safe, its nonce, the act); a read-only recorder
// refuses it, journaling nothing.
func TestSafeSignatureJournaledFirst(t *testing.T) {
	treasury, owner := common.Address{0xaa}, common.Address{0x01}
	p := &proposal.Proposal{Safe: treasury, Act: proposal.Act{Op: proposal.OpClaim, Subject: "a-1"},
		Tx: safe.Tx{Nonce: big.NewInt(7)}, Hashes: safe.Hashes{SafeTx: common.Hash{0x5a}}}

	rec, j := newRecorder(t)
	if err := rec.SafeSignature(p, owner); err != nil {
		t.Fatal(err)
	}
	entries, err := j.Entries(journal.Match{Kind: journal.KindSignature})
	if err != nil || len(entries) != 1 || entries[0].Op != OpSafeSign || entries[0].Ref != p.Hashes.SafeTx.Hex() {
		t.Fatalf("journaled: %+v, %v", entries, err)
	}
	var data map[string]string
	if err := json.Unmarshal(entries[0].Data, &data); err != nil {
		t.Fatal(err)
	}
	if data["safe"] != treasury.Hex() || data["nonce"] != "7" || data["owner"] != owner.Hex() || data["act"] != "claim" || data["subject"] != "a-1" {
		t.Errorf("what was journaled: %v", data)
	}

	rec.ReadOnly = errors.New("read-only")
	if err := rec.SafeSignature(p, owner); err == nil {
		t.Error("a read-only recorder journaled a signature")
	}
	if entries, _ := j.Entries(journal.Match{Kind: journal.KindSignature}); len(entries) != 1 {
		t.Errorf("%d signatures journaled after the refusal, want 1", len(entries))
	}
}

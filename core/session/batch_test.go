package session

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// TestParseBatchAct: each act's value is checked as `safe batch` and the
// dashboard both take it, and names itself the same way back.
func TestParseBatchAct(t *testing.T) {
	const id = "7f1c2a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f"
	a, err := ParseBatchAct(proposal.OpStake, id+"=1.5")
	if err != nil {
		t.Fatal(err)
	}
	if a.Subject != id || a.Amount.String() != "1500000000000000000" || a.String() != "stake "+id+"=1.50" {
		t.Errorf("stake parsed as %+v (%s)", a, a)
	}
	a, err = ParseBatchAct(proposal.OpTransfer, id+"=0x00000000000000000000000000000000000000aa")
	if err != nil || a.To != common.HexToAddress("0xaa") {
		t.Errorf("transfer parsed as %+v, %v", a, err)
	}
	for _, c := range []struct{ op, v, want string }{
		{proposal.OpStake, id, "want ID=AMOUNT"},
		{proposal.OpTransfer, id + "=nope", "ADDR"},
		{proposal.OpClaim, "not-a-uuid", "id"},
	} {
		if _, err := ParseBatchAct(c.op, c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want one naming %q", c.op, c.v, err, c.want)
		}
	}
}

// TestProposeBatchRefusesBeforeBuilding: a batch is proposed only by an
// owner of the Safe, and holds 1 to proposal.MaxCalls acts; each is
// refused before the service or the chain is asked anything.
func TestProposeBatchRefusesBeforeBuilding(t *testing.T) {
	s := &Session{}
	treasury, owner, stranger := common.Address{0x5a}, common.Address{0x01}, common.Address{0x02}
	info := safe.Info{Address: treasury, Threshold: 1, Owners: []common.Address{owner}}
	claim := BatchAct{Op: proposal.OpClaim, Subject: "7f1c2a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f"}
	for _, c := range []struct {
		name string
		by   common.Address
		acts []BatchAct
		want string
	}{
		{"a stranger's", stranger, []BatchAct{claim}, "is not an owner of the Safe"},
		{"no act", owner, nil, "1 to 20 acts, not 0"},
		{"too many acts", owner, slices.Repeat([]BatchAct{claim}, proposal.MaxCalls+1), "not 21"},
	} {
		_, err := s.ProposeBatch(context.Background(), &act.Recorder{}, info, c.by, c.acts, common.Address{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

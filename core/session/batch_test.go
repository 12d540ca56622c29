package session

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

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

package proposal_test

import (
	"bytes"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// TestProposalActs: a transfer's new address and a batch's act survive
// the file; an act of another kind, or a new address on an act that is no
// transfer, is refused as the file is read.
func TestProposalActs(t *testing.T) {
	o := newOwners(t, 3)
	info := safe.Info{Address: theSafe, Version: "1.4.1", Owners: o.addrs, Threshold: 2, Nonce: big.NewInt(7)}
	to := common.HexToAddress("0x00000000000000000000000000000000000000a2")
	for _, act := range []proposal.Act{
		{Op: proposal.OpTransfer, Subject: "alloc-1", To: to},
		{Op: proposal.OpBatch, Subject: "2 acts: 1 claim(s), 1 transfer(s)"},
	} {
		p, err := proposal.New(31337, info, act, twoCalls(), multiSend)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := proposal.Write(&buf, p); err != nil {
			t.Fatal(err)
		}
		back, err := proposal.Read(bytes.NewReader(buf.Bytes()))
		if err != nil || back.Act.Op != act.Op || back.Act.To != act.To || back.Act.Subject != act.Subject {
			t.Errorf("%s read back as %+v (%v)", act.Op, back, err)
		}
		if act.Op != proposal.OpTransfer {
			continue
		}
		good := buf.String()
		for name, file := range map[string]string{
			"another kind of act":        strings.Replace(good, `"op": "transfer"`, `"op": "sweep"`, 1),
			"a claim with a new address": strings.Replace(good, `"op": "transfer"`, `"op": "claim"`, 1),
		} {
			if _, err := proposal.Read(strings.NewReader(file)); !errors.Is(err, proposal.ErrInvalid) {
				t.Errorf("%s: %v, want ErrInvalid", name, err)
			}
		}
	}
}

package app

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session/sessiontest"
	"allot/wallet"
)

// platformFeeSelector is platformFee()'s.
var platformFeeSelector = []byte{0x26, 0x23, 0x2a, 0x2e}

// feeForgingNode cannot simulate (it has no SimulateV1: a stake after its
// approve gets the fallback gas limit) and answers every platformFee()
// with 0 on eth_call only: the policy reads 0, the chain takes the real
// fee, and the stake reverts once its approve is mined.
type feeForgingNode struct{ wallet.Node }

func (n feeForgingNode) CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if bytes.HasPrefix(msg.Data, platformFeeSelector) {
		return make([]byte, 32), nil
	}
	return n.Node.CallContract(ctx, msg, block)
}

// TestStakeLeftoverResetInDashboard: issue 30 item 5 in the dashboard. The
// stake's outcome says the allowance its mined approve left when the
// stake reverted, and R prepares its reset: reviewed first, the question's
// default (enter) signs nothing and the stake's outcome comes back; y
// signs the approve of 0, and nothing is left.
func TestStakeLeftoverResetInDashboard(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	h.Rewrite("/parameters/stake", func(r map[string]any) { r["platformFee"] = json.Number("0") })
	honest := h.Session.Chain
	h.Session.Chain = feeForgingNode{honest}
	f := newFlowOn(t, h.Session)
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
	f.runes("2").wait("Season").runes("S").wait("Stake in")
	f.typ("150").key(tea.KeyEnter).wait("Sign and send these 2 transactions")
	f.runes("y").wait("stake 0x").wait("REVERTED")
	f.wait("Left behind: the approve was mined and the stake was not").wait("R resets it")

	f.runes("R")
	start := f.mark
	f.wait("Sign and send this transaction?").waitFrom(start, "lines ").readToEnd()
	for _, want := range []string{"(reset-allowance): ERC-20 token approve", "150.00 MRD (read from the chain); 0 after the reset", "value       0"} {
		if !strings.Contains(f.seen.String()[start:], want) {
			t.Errorf("the reset's review did not show %q", want)
		}
	}
	f.key(tea.KeyEnter).wait("not signed: nothing was sent").wait("R resets it")
	if n := len(journaltest.Of(journaltest.Entries(t, h.Session.StateDir), journal.KindSignature, "reset-allowance")); n != 0 {
		t.Fatalf("the question's default signed %d resets", n)
	}

	f.runes("R").wait("Sign and send this transaction?").runes("y")
	f.wait("reset-allowance 0x").wait("success, mined").wait("Nothing is left")
	f.quit()
	owner := common.HexToAddress(h.Session.Fixtures.Wallets[0].Address)
	var token, pool common.Address
	for _, e := range journaltest.Of(journaltest.Entries(t, h.Session.StateDir), journal.KindSignature, "reset-allowance") {
		var signed struct {
			Summary struct {
				To   common.Address
				Args []struct{ Name, Value string }
			} `json:"summary"`
		}
		if err := json.Unmarshal(e.Data, &signed); err != nil || len(signed.Summary.Args) != 2 {
			t.Fatalf("reset signature %s: %v", e.Data, err)
		}
		token, pool = signed.Summary.To, common.HexToAddress(signed.Summary.Args[0].Value)
		if !strings.HasPrefix(signed.Summary.Args[1].Value, "0") {
			t.Errorf("the reset approves %s, want 0", signed.Summary.Args[1].Value)
		}
	}
	if left, err := wallet.LeftAllowance(context.Background(), honest, token, owner, pool); err != nil || left != nil {
		t.Errorf("after the reset %+v, %v; want nothing left", left, err)
	}
}

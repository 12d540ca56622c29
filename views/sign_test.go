package views

import (
	"allot/core/sign"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"

	"allot/wallet"
)

// TestSigningQuestionCountsTransactions: one transaction "sends" and
// "pays"; several "send" and "pay", with the sums of what they send and
// the most their fees can be, and the worst case of the two together.
func TestSigningQuestionCountsTransactions(t *testing.T) {
	draft := func(value int64) *wallet.Draft {
		return &wallet.Draft{Tx: types.NewTx(&types.DynamicFeeTx{Gas: 100_000, GasFeeCap: big.NewInt(2_000_000_000), Value: big.NewInt(value)})}
	}
	one := &signing{prepared: sign.Review{Drafts: []*wallet.Draft{draft(200_000_000_000_000)}}}
	if got, want := one.question()+" "+wallet.WorstCaseLine(one.prepared.Drafts), "Sign and send this transaction? It sends 0.0002 ether and pays at most 0.0002 ether in fees: at most 0.0004 ether in all."; got != want {
		t.Errorf("one transaction:\n got %q\nwant %q", got, want)
	}
	two := &signing{prepared: sign.Review{Drafts: []*wallet.Draft{draft(0), draft(200_000_000_000_000)}}}
	if got, want := two.question()+" "+wallet.WorstCaseLine(two.prepared.Drafts), "Sign and send these 2 transactions, in this order? They send 0.0002 ether and pay at most 0.0004 ether in fees: at most 0.0006 ether in all."; got != want {
		t.Errorf("two transactions:\n got %q\nwant %q", got, want)
	}
}

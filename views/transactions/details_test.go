package transactions

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/core/journal"
	"allot/views/reopen"
	"allot/viewstest"
)

const claimHash = "0xe7bcd7e518162c71b8f9801b73edf7019319a25e3e851227c2ef023008043aaf"

// journalClaim records a mined claim as the signing flow does: its
// signature (what was signed), then its status.
func journalClaim(t *testing.T, ctx interface {
	Append(journal.Entry) error
}, d journal.Deployment) {
	t.Helper()
	signed := `{"summary":{"to":"0xce21E3bF9417BA504Ac8eEf054cBB3B732BeAd01","toLabel":"Team & Advisors Vesting (VESTING)","signature":"withdraw(uint256,uint32,bytes,bytes32[])",` +
		`"args":[{"name":"withdrawalAmount","value":"5145759500000000000000","units":"5145.7595"}],"valueEther":"0.0005",` +
		`"withdrawal":{"amount":"5145.7595","allocationId":"05b5c169-826c-5127-b4be-e82e50f24f7a"}}}`
	for _, e := range []journal.Entry{
		{At: viewstest.Now, Kind: journal.KindSignature, Op: "claim", Ref: claimHash, Data: []byte(signed)},
		{At: viewstest.Now, Kind: journal.KindTransaction, Op: "claim", Ref: claimHash, Status: "success", Data: []byte(`{"block":23,"gasUsed":202051,"confirmations":1}`)},
	} {
		if err := ctx.Append(d.Stamp(e)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestChainTransactionDetailsSayWhatItDid: a claim's details name the
// allocation, the amount and the contract, not only its hash.
func TestChainTransactionDetailsSayWhatItDid(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	journalClaim(t, ctx.Journal, ctx.Session.Deployment())
	rows, err := Read(ctx.Journal, ctx.Session.Deployment())
	if err != nil || len(rows) != 1 {
		t.Fatalf("rows %+v, %v", rows, err)
	}
	got := map[string]string{}
	for _, f := range rows[0].Fields(viewstest.Now) {
		got[f.Label] = f.Value
	}
	for label, want := range map[string]string{
		"Allocation": "05b5c169-826c-5127-b4be-e82e50f24f7a",
		"Amount":     "5145.7595 tokens",
		"Contract":   "Team & Advisors Vesting (VESTING) 0xce21E3bF9417BA504Ac8eEf054cBB3B732BeAd01",
	} {
		if got[label] != want {
			t.Errorf("%s: %q, want %q", label, got[label], want)
		}
	}
}

// TestTransactionsAt200x60: the status takes what it needs, not half the
// width: a hash is whole in the table, and the pane is wide enough for
// the hash to wrap once at most.
func TestTransactionsAt200x60(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	d := ctx.Session.Deployment()
	// A stake that reverted with a long reason: its status is long, and
	// was given half the width, cutting the ids and squeezing the pane.
	reason := `{"block":12,"gasUsed":50000,"revertReason":"ERC20InsufficientBalance(0x3e3Daf419A62d6665b5B6444e071475801B87Ae2, 250000000000000000000000, 300000000000000000000000)"}`
	if err := ctx.Journal.Append(d.Stamp(journal.Entry{At: viewstest.Now, Kind: journal.KindTransaction, Op: "stake", Ref: "0x" + strings.Repeat("ab", 32), Status: "reverted", Data: []byte(reason)})); err != nil {
		t.Fatal(err)
	}
	journalClaim(t, ctx.Journal, d)
	tr := New(ctx, reopen.Unknown).(*transactions)
	viewstest.NewSyncDriver(t, tr, 200, 60, viewstest.NoInit).Run(tr.Reload())
	view := ansi.Strip(tr.View())
	lines := strings.Split(view, "\n")
	if !strings.Contains(view, claimHash+" ") {
		t.Errorf("the hash is cut in the table:\n%s", view)
	}
	// The pane's lines from the transaction's to the kind's: the hash
	// and where it wraps.
	first, kind := -1, -1
	for i, l := range lines {
		switch {
		case first < 0 && strings.Contains(l, "│Transaction"):
			first = i
		case first >= 0 && strings.Contains(l, "│Kind"):
			kind = i
		}
		if kind >= 0 {
			break
		}
	}
	if first < 0 || kind < 0 || kind-first > 2 {
		t.Errorf("the hash takes %d lines in the pane:\n%s", kind-first, view)
	}
}

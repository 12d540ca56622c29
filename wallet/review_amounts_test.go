package wallet

import (
	"context"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestReviewGroupsTokenAmounts: the signing review of a claim reads its
// token amounts as the allocation screen and the tables do (grouped, at
// least two decimals), not as bare digits: "= 200.50 tokens", "the vester
// holds 91,978,016.67".
func TestReviewGroupsTokenAmounts(t *testing.T) {
	p, root := fakeProof(t)
	f := newFakeVester(root, aliceHead)
	var err error
	if f.balance, err = ParseUnits("91978016.67"); err != nil {
		t.Fatal(err)
	}
	amount, err := ParseUnits("200.5")
	if err != nil {
		t.Fatal(err)
	}
	policy, call := aliceClaim(t, f, p, common.Address{0xa1}, amount, common.Address{})
	policy.Amount = amount
	a, err := CheckClaim(context.Background(), f, policy, []Call{call})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	var said strings.Builder
	for _, l := range a.Facts {
		said.WriteString(l.Label + ": " + l.Value + "\n")
	}
	for _, l := range DecodeCall(context.Background(), call, DecodeOptions{}).Lines() {
		said.WriteString(l.Label + ": " + l.Value + "\n")
	}
	for _, want := range []string{"= 200.50 tokens", "claimable: 250.00 tokens: 250.00 vested", "0.00 withdrawn, the vester holds 91,978,016.67"} {
		if !strings.Contains(said.String(), want) {
			t.Errorf("the review does not say %q:\n%s", want, said.String())
		}
	}
}

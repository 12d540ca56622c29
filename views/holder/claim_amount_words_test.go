package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/views/widget"
	"allot/wallet"
)

// TestClaimFormGroupsTheUnlockedAmount: the claim form writes what is
// claimable as the allocation does, 5,145.7595, not 5145.7595.
func TestClaimFormGroupsTheUnlockedAmount(t *testing.T) {
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "5145.7595", common.Address{}, wallet.ClaimOutlook{}, "").(*claim)
	c.SetSize(100, 30)
	if v := ansi.Strip(c.View()); !strings.Contains(v, "Claimable now: 5,145.7595 tokens") {
		t.Errorf("the claimable amount:\n%s", v)
	}
}

// TestOneAmountReadsTheSameEverywhere: 127,721.3 tokens read as the tables
// show them, "127,721.30", in the claim form, in the allocation's fields
// and in the signing review (wallet.FormatTokens), not "127,721.3" in one
// place and "127721.3" in another.
func TestOneAmountReadsTheSameEverywhere(t *testing.T) {
	const want = "127,721.30"
	units, err := wallet.ParseUnits("127721.3")
	if err != nil {
		t.Fatal(err)
	}
	if got := wallet.FormatTokens(units); got != want {
		t.Errorf("the signing review says %q, want %q", got, want)
	}
	if got := widget.FormatTokens("127721.3"); got != want {
		t.Errorf("the tables say %q, want %q", got, want)
	}
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "127721.3", common.Address{}, wallet.ClaimOutlook{}, "").(*claim)
	c.SetSize(100, 30)
	if v := ansi.Strip(c.View()); !strings.Contains(v, "Claimable now: "+want+" tokens") {
		t.Errorf("the claim form does not say %q:\n%s", want, v)
	}
}

// TestClaimAmountGroupedAndNamed: the amount is typed as the screen
// writes it ("1,000"), and a refusal writes the claimable amount grouped,
// with its token: "more than the 5,145.7595 HBR claimable now".
func TestClaimAmountGroupedAndNamed(t *testing.T) {
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "5145.7595", common.Address{}, wallet.ClaimOutlook{}, "HBR")
	c.SetSize(100, 30)
	v := typeInto(c, "1,000")
	if strings.Contains(v, "✗") || !strings.Contains(v, "Claimable now: 5,145.7595 HBR") {
		t.Errorf("the amount 1,000 against 5,145.7595 HBR claimable:\n%s", v)
	}
	c = NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "5145.7595", common.Address{}, wallet.ClaimOutlook{}, "HBR")
	c.SetSize(100, 30)
	if v := typeInto(c, "6,000"); !strings.Contains(v, "✗ more than the 5,145.7595 HBR claimable now") {
		t.Errorf("the amount 6,000 against 5,145.7595 HBR claimable:\n%s", v)
	}
}

// TestClaimAmountFieldNamesTheToken: the amount's field is labelled with
// the allocation's token ("Amount (HBR)", was "Amount (tokens)"), and
// "tokens" only where the token is not known.
func TestClaimAmountFieldNamesTheToken(t *testing.T) {
	for token, want := range map[string]string{"HBR": "Amount (HBR)", "": "Amount (tokens)"} {
		c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "5145.7595", common.Address{}, wallet.ClaimOutlook{}, token)
		c.SetSize(100, 30)
		if v := ansi.Strip(c.View()); !strings.Contains(v, want) {
			t.Errorf("token %q: no %q:\n%s", token, want, v)
		}
	}
}

package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/views"
	"allot/viewstest"
	"allot/wallet"
)

// TestClaimServiceErrorsMarkTheirField: the service's 400 on a claim
// request marks the field its path names; what no field shows (the
// sender) is in the status line with the rest of the refusal.
func TestClaimServiceErrorsMarkTheirField(t *testing.T) {
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "1500", common.Address{}, wallet.ClaimOutlook{}, "").(*claim)
	c.SetSize(100, 30)
	c.answered(&views.Answer[claimAnswer]{Err: &api.ValidationError{Op: "claim", Remote: true, Fields: []api.FieldError{
		{Path: "userCountryCode", Message: "claims are not served in this country"},
		{Path: "sender", Message: "is not the beneficiary"},
	}}})
	view := ansi.Strip(c.View())
	if got := viewstest.ErrUnder(view, "Country"); !strings.Contains(got, "not served in this country") {
		t.Fatalf("under the country: %q\n%s", got, view)
	}
	if got := viewstest.ErrUnder(view, "Amount"); got != "" {
		t.Errorf("under the amount: %q", got)
	}
	if !strings.Contains(view, "sender: is not the beneficiary") {
		t.Errorf("the unmatched error is not on screen:\n%s", view)
	}
}

package operator

import (
	"strings"
	"testing"

	"allot/api"
	"allot/api/sandbox"
)

// TestFundAmountGoesOutDigitForDigit: a 38-digit amount typed in the fund
// form is reviewed and sent as the service takes it (docs/deployment.md D7: a JSON number),
// digit for digit, never rounded through float64 nor given an exponent.
func TestFundAmountGoesOutDigitForDigit(t *testing.T) {
	t.Parallel()
	const digits = "12345678901234567890123456789012345678.123456789012345678"
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionFundDistribution)
	h.Paste(s.Fixtures.AllocationIDs[0])
	h.Keys("tab")
	h.Paste(digits)
	h.Keys("ctrl+s")
	want := `"amount":` + digits + `}`
	if shown := string(h.reviewedBody()); !strings.Contains(shown, want) {
		t.Fatalf("review shows %s, want it to hold %s", shown, want)
	}
	h.yesWhileBusy()
	var sent []string
	for _, x := range s.Requests.All() {
		if x.Method == "POST" && strings.HasSuffix(x.URL, "/transactions/create") {
			sent = append(sent, string(x.RequestBody))
		}
	}
	if len(sent) != 1 || !strings.Contains(sent[0], want) {
		t.Errorf("sent %q, want one body holding %s", sent, want)
	}
}

// TestFundAmountTakesGrouping: an amount typed grouped as every screen
// writes one ("1,000") is reviewed as 1000, as the claim form takes it; it
// was read as zero and refused as "must be greater than 0".
func TestFundAmountTakesGrouping(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionFundDistribution)
	h.Paste(s.Fixtures.AllocationIDs[0])
	h.Keys("tab")
	h.Paste("1,000.5")
	h.Keys("ctrl+s")
	if shown := string(h.reviewedBody()); !strings.Contains(shown, `"amount":1000.5}`) {
		t.Fatalf("review shows %s, want the amount 1000.5", shown)
	}
}

package holder

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/viewstest"
	"allot/wallet"
)

// TestClaimFormRefusesUnassignedCountry: ZZ is refused under the country
// field as it is typed, before any question or request: only the
// service refused it, after the confirm.
func TestClaimFormRefusesUnassignedCountry(t *testing.T) {
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "1500", common.Address{}, wallet.ClaimOutlook{}, "").(*claim)
	c.SetSize(100, 30)
	c.Update(tea.KeyMsg{Type: tea.KeyTab})
	view := typeInto(c, "ZZ")
	if got := viewstest.ErrUnder(view, "Country"); !strings.Contains(got, `"ZZ" is not an ISO 3166-1 alpha-2`) {
		t.Fatalf("under the country: %q\n%s", got, view)
	}
}

// TestClaimFormNamesTheCountryAsTyped: a country typed by its name is
// refused, named as typed, whole at 80 columns; it is not cut to its
// first two letters, which read as another country's code (Ge: Georgia).
func TestClaimFormNamesTheCountryAsTyped(t *testing.T) {
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "1500", common.Address{}, wallet.ClaimOutlook{}, "").(*claim)
	c.SetSize(80, 24)
	c.Update(tea.KeyMsg{Type: tea.KeyTab})
	view := typeInto(c, "Germany")
	if got := viewstest.ErrUnder(view, "Country"); !strings.HasPrefix(got, `✗ "Germany" is not`) || strings.HasSuffix(got, "…") {
		t.Errorf("under the country: %q\n%s", got, view)
	}
	if req, err := c.request(); err == nil || req.UserCountryCode == "GE" {
		t.Errorf("Germany makes the request %+v, %v", req, err)
	}
}

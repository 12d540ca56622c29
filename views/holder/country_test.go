package holder

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/views/viewstest"
)

// TestClaimFormRefusesUnassignedCountry: ZZ is refused under the country
// field as it is typed, before any question or request: only the
// service refused it, after the confirm.
func TestClaimFormRefusesUnassignedCountry(t *testing.T) {
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "1500", common.Address{}).(*claim)
	c.SetSize(100, 30)
	c.Update(tea.KeyMsg{Type: tea.KeyTab})
	view := typeInto(c, "ZZ")
	if got := viewstest.ErrUnder(view, "Country"); !strings.Contains(got, `"ZZ" is not an ISO 3166-1 alpha-2`) {
		t.Fatalf("under the country: %q\n%s", got, view)
	}
}

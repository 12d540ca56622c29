package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"
)

// TestClaimFormGroupsTheUnlockedAmount: the claim form writes what is
// claimable as the allocation does, 5,145.7595, not 5145.7595.
func TestClaimFormGroupsTheUnlockedAmount(t *testing.T) {
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "5145.7595", common.Address{}).(*claim)
	c.SetSize(100, 30)
	if v := ansi.Strip(c.View()); !strings.Contains(v, "Claimable now: 5,145.7595 tokens") {
		t.Errorf("the claimable amount:\n%s", v)
	}
}

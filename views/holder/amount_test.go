package holder

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/session"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// formContext is enough of a Context for a form that sends nothing.
func formContext() *views.Context {
	return &views.Context{Styles: widget.DefaultStyles(), Wallet: &session.Wallet{}}
}

// typeInto types text into a screen's focused field and returns its view.
func typeInto(s views.Screen, text string) string {
	s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text)})
	return ansi.Strip(s.View())
}

func TestClaimAmountChecksAsTyped(t *testing.T) {
	for _, tt := range []struct{ amount, want string }{
		{"1.1234567890123456789", "✗ at most 18 decimals"},
		{"1500.5", "✗ more than the 1,500.00 tokens claimable now"},
		{"0", "✗ must be greater than 0"},
	} {
		c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "1500", common.Address{}, wallet.ClaimOutlook{}, "")
		c.SetSize(100, 30)
		if v := typeInto(c, tt.amount); !strings.Contains(v, tt.want) {
			t.Errorf("claim amount %q: want %q on screen:\n%s", tt.amount, tt.want, v)
		}
	}
	c := NewClaim(formContext(), "3f1a2b4c-0000-4000-8000-000000000001", "1500", common.Address{}, wallet.ClaimOutlook{}, "")
	c.SetSize(100, 30)
	if v := typeInto(c, "1500"); strings.Contains(v, "✗") {
		t.Errorf("all that is unlocked is refused:\n%s", v)
	}
}

func TestStakeAmountChecksAsTyped(t *testing.T) {
	pool := api.Pool{ID: "p", Name: "Pool"}
	pool.MinimumStakeAmount, _ = api.ParseDecimal("10")
	for _, tt := range []struct{ amount, want string }{
		{"10.1234567890123456789", "✗ at most 18 decimals"},
		{"5", "✗ the pool's minimum stake is 10.00 tokens"},
		{"1" + strings.Repeat("0", 60), "✗ too large: its base units do not fit a uint256"},
	} {
		s := NewStake(formContext(), pool)
		s.SetSize(100, 30)
		if v := typeInto(s, tt.amount); !strings.Contains(v, tt.want) || !strings.Contains(v, "minimum 10.00 tokens ·") {
			t.Errorf("stake amount %q: want %q on screen:\n%s", tt.amount, tt.want, v)
		}
	}
}

// TestStakeSaysWhatItNeedsOnOpen: without an unlocked account the stake
// form says so when it opens, as the claim form does.
func TestStakeSaysWhatItNeedsOnOpen(t *testing.T) {
	s := NewStake(formContext(), api.Pool{ID: "p", Name: "Pool"})
	s.SetSize(100, 30)
	if v := ansi.Strip(s.View()); !strings.Contains(v, "No account is unlocked: esc, then u (or :unlock)") {
		t.Errorf("the stake form opens without saying no account is unlocked:\n%s", v)
	}
}

// TestStakeAPYAsThePoolsWriteIt: the stake form's max APY reads as the
// Pools table, its details and allot pools write it ("6.50%", not "6.5%").
func TestStakeAPYAsThePoolsWriteIt(t *testing.T) {
	pool := api.Pool{ID: "p", Name: "Pool"}
	pool.MaxAPY, _ = api.ParseDecimal("6.5")
	s := NewStake(formContext(), pool)
	s.SetSize(100, 30)
	if v := ansi.Strip(s.View()); !strings.Contains(v, "max APY 6.50%") {
		t.Errorf("want max APY 6.50%%:\n%s", v)
	}
}

package holder

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"allot/internal/config"
	"allot/internal/session"
	"allot/views"
	"allot/wallet/vesting"
)

// TestCountdownNamesTheToken: the countdown's amount carries the token's
// symbol from the profile's token_names, and the token's id when it has
// none, as the header names the token.
func TestCountdownNamesTheToken(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	amount := new(big.Int).Mul(big.NewInt(1000), big.NewInt(1e18))
	next := vesting.Unlock{At: now.Add(22 * time.Hour), PPM: 250_000, Amount: amount}
	for _, tc := range []struct {
		names map[string]config.TokenName
		want  string
	}{
		{map[string]config.TokenName{"tok-1": {Name: "Meridian", Symbol: "MRD"}}, "next unlock in 22h: 25%, 1,000.00 MRD"},
		{nil, "next unlock in 22h: 25%, 1,000.00 tok-1"},
	} {
		sess := &session.Session{Profile: config.Profile{TokenNames: tc.names}}
		c := countdown{ctx: &views.Context{Session: sess, Token: "tok-1"}, next: next, ok: true}
		if got := c.text(now); !strings.Contains(got, tc.want) {
			t.Errorf("countdown reads %q, want %q", got, tc.want)
		}
	}
}

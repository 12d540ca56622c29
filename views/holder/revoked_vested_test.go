package holder

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"allot/wallet"
	"allot/wallet/vesting"
)

// TestRevokedSaysNothingVests: a revoked allocation's Vested line says
// it was revoked and nothing vests, not "0.00 HBR at 1970-01-01 … (56y
// ago)": the vester computes a revoked allocation at time zero.
func TestRevokedSaysNothingVests(t *testing.T) {
	zero := new(big.Int)
	v := &wallet.Verification{
		Args:     &vesting.Args{},
		Standing: &wallet.Standing{TerminatedTimestamp: 1, Withdrawn: zero, VesterBalance: big.NewInt(5), Handlers: nil},
		Payout:   &wallet.Payout{VestedAt: time.Unix(0, 0), Vested: zero, Owed: zero, Withdrawable: zero},
	}
	for _, f := range standingFields(v, time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), unit("HBR")) {
		if f.Label != "Vested" {
			continue
		}
		if strings.Contains(f.Value, "1970") || strings.Contains(f.Value, "ago") || !strings.Contains(f.Value, "revoked") {
			t.Errorf("Vested of a revoked allocation reads %q", f.Value)
		}
		return
	}
	t.Error("a revoked allocation has no Vested line saying nothing vests")
}

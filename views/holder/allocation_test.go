package holder

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
	"allot/wallet/merkle"
	"allot/wallet/vesting"
)

// TestUnlockedFieldUnclaimable: for a leaf the production vester cannot
// pay out now (a piece of period length 0, D16), the allocation screen
// shows the warning with its date and no unlocked amount or percent; for
// a sound leaf it shows the amount the vester pays.
func TestUnlockedFieldUnclaimable(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	start := uint32(now.Unix())
	verify := func(pieces ...vesting.Piece) *wallet.Verification {
		data, err := vesting.Encode(vesting.Args{
			Allocation: vesting.Allocation{ID: "a", OriginalBeneficiary: common.Address{1}, TotalAllocation: big.NewInt(3e18)},
			Schedule:   vesting.Schedule{Kind: vesting.Interval, Pieces: pieces},
		})
		if err != nil {
			t.Fatal(err)
		}
		leaf := merkle.Leaf(data)
		return wallet.VerifyProof(context.Background(), &wallet.Proof{ID: "a", DecodableArgs: data, Hash: &leaf}, wallet.VerifyOptions{Now: now.Add(time.Hour)})
	}
	field := func(v *wallet.Verification) string {
		for _, f := range verificationFields(v, now, "") {
			if f.Label == "Unlocked now" {
				return f.Value
			}
		}
		t.Fatal("no Unlocked now field")
		return ""
	}

	got := field(verify(
		vesting.Piece{StartDate: start, PeriodLength: 0, NumberOfPeriods: 1, Percent: 500_000},
		vesting.Piece{StartDate: start, PeriodLength: 86_400, NumberOfPeriods: 2, Percent: 500_000},
	))
	want := "this schedule cannot be claimed on the production vester until 2030-01-03 00:00:00 UTC"
	if !strings.Contains(got, want) || strings.Contains(got, "%") {
		t.Errorf("Unlocked now = %q, want the warning %q and no amount", got, want)
	}

	// The one-off third has unlocked: floor(3e18*333333/1e6) wei.
	got = field(verify(
		vesting.Piece{StartDate: start - 1, PeriodLength: 1, NumberOfPeriods: 1, Percent: 333_333},
		vesting.Piece{StartDate: start, PeriodLength: 86_400, NumberOfPeriods: 2, Percent: 666_667},
	))
	if !strings.HasPrefix(got, "33.3333%") || !strings.Contains(got, "0.999999") {
		t.Errorf("Unlocked now = %q, want 33.3333%% and 0.999999 tokens", got)
	}
}

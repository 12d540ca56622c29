package holder

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/clock"
	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
	"allot/wallet"
	"allot/wallet/merkle"
	"allot/wallet/vesting"
)

// TestCountdownCrossesAnUnlock: the allocation screen counts down to the
// next unlock on the context's clock; when the (fake) clock passes it,
// Unlocked and Claimable change on screen without a key, and the count
// goes on to the unlock after.
func TestCountdownCrossesAnUnlock(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	fake := clock.NewFake(t0)
	ctx := &views.Context{Session: &session.Session{}, Now: fake.Now, Clock: fake, Styles: widget.DefaultStyles()}
	a := NewAllocation(ctx).(*allocation)
	d := viewstest.NewDriver(t, a, 120, 36)
	a.seq, a.looking = 7, "a"
	d.Run(a.Update(views.Loaded[lookedUp]{Seq: 7, Value: lookedUp{v: quarters(t, t0), unit: ""}}))
	// Runs of spaces read as one: the labels' column is the pane's.
	view := func() string { return strings.Join(strings.Fields(ansi.Strip(a.View())), " ") }
	for _, want := range []string{"next unlock in 22h: 25%, 1,000.00", "Unlocked now 25% 1,000.00", "Claimable now 600.00"} {
		if !strings.Contains(view(), want) {
			t.Fatalf("before the unlock, no %q in\n%s", want, view())
		}
	}

	wait, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := fake.BlockUntil(wait, 1); err != nil {
		t.Fatal("the countdown waits on no clock:", err)
	}
	fake.Advance(22 * time.Hour)
	d.Until("Claimable after the unlock", func() bool { return strings.Contains(view(), "Claimable now 1,600") })
	for _, want := range []string{"Unlocked now 50% 2,000", "next unlock in 1d: 25%, 1,000"} {
		if !strings.Contains(view(), want) {
			t.Errorf("after the unlock, no %q in\n%s", want, view())
		}
	}
}

// quarters is the verification of 4,000 tokens in four daily quarters
// from 26h before t0: one has unlocked, the next comes in 22h; 400 were
// withdrawn, and the vester holds plenty.
func quarters(t *testing.T, t0 time.Time) *wallet.Verification {
	t.Helper()
	total := new(big.Int).Mul(big.NewInt(4000), big.NewInt(1e18))
	data, err := vesting.Encode(vesting.Args{
		Allocation: vesting.Allocation{ID: "a", OriginalBeneficiary: common.Address{1}, TotalAllocation: total},
		Schedule: vesting.Schedule{Kind: vesting.Interval, Pieces: []vesting.Piece{
			{StartDate: uint32(t0.Add(-26 * time.Hour).Unix()), PeriodLength: 86_400, NumberOfPeriods: 4, Percent: 1_000_000}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	leaf := merkle.Leaf(data)
	v := wallet.VerifyProof(context.Background(), &wallet.Proof{ID: "a", DecodableArgs: data, Hash: &leaf}, wallet.VerifyOptions{Now: t0})
	v.Standing = &wallet.Standing{Withdrawn: new(big.Int).Mul(big.NewInt(400), big.NewInt(1e18)), VesterBalance: total, Handlers: []common.Address{{}}}
	return v.AsOf(t0)
}

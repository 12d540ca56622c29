package upcoming

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
	"allot/wallet/merkle"
	"allot/wallet/vesting"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) // a Sunday

func verification(t *testing.T, id string, s *wallet.Standing) *wallet.Verification {
	t.Helper()
	day := uint32(86_400)
	data, err := vesting.Encode(vesting.Args{
		Allocation: vesting.Allocation{ID: id, OriginalBeneficiary: common.Address{1}, TotalAllocation: big.NewInt(1000)},
		Schedule: vesting.Schedule{Kind: vesting.Interval, Pieces: []vesting.Piece{
			{StartDate: uint32(now.Unix()), PeriodLength: 7 * day, NumberOfPeriods: 10, Percent: 1_000_000}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	leaf := merkle.Leaf(data)
	v := wallet.VerifyProof(context.Background(), &wallet.Proof{ID: id, DecodableArgs: data, Hash: &leaf}, wallet.VerifyOptions{Now: now})
	v.Standing = s
	return v
}

// TestCollectAndTotals: weekly unlocks of two allocations, one of them
// cancelled after three weeks, one that cannot be read; totals per ISO
// week and calendar month, per token.
func TestCollectAndTotals(t *testing.T) {
	token := common.Address{7}
	active := &wallet.Standing{Token: token, Withdrawn: new(big.Int), VesterBalance: big.NewInt(1000)}
	cancelled := &wallet.Standing{Token: token, Withdrawn: new(big.Int), VesterBalance: big.NewInt(1000),
		TerminatedTimestamp: uint32(now.Add(21*24*time.Hour + time.Hour).Unix())}
	check := func(_ context.Context, id string) (*wallet.Verification, error) {
		switch id {
		case "a":
			return verification(t, "a", active), nil
		case "c":
			return verification(t, "c", cancelled), nil
		}
		return nil, errors.New("no such allocation")
	}
	r := Collect(context.Background(), check, []string{"a", "c", "x"}, now, 40)
	got := ""
	for _, u := range r.Unlocks {
		got += fmt.Sprintf("%s %s %s; ", u.At.Format("01-02"), u.Allocation, u.Amount)
	}
	// 1000 in tenths: 100 a week; c stops after its third.
	want := "11-29 a 100; 11-29 c 100; 12-06 a 100; 12-06 c 100; 12-13 a 100; 12-13 c 100; 12-20 a 100; 12-27 a 100; "
	if got != want {
		t.Errorf("unlocks:\n got %s\nwant %s", got, want)
	}
	if a := r.Allocations; len(a) != 3 || a[1].State != "cancelled" || a[1].Unlocks != 3 || a[2].Err == nil {
		t.Errorf("allocations = %+v", a)
	}
	totals := func(p Period) string {
		s := ""
		for _, tot := range r.Totals(p) {
			s += fmt.Sprintf("%s %s/%d; ", tot.Start.Format("01-02 Mon"), tot.Amount, tot.Unlocks)
		}
		return s
	}
	// Sunday the 29th is in the week from Monday the 23rd.
	if got, want := totals(Week), "11-23 Mon 200/2; 11-30 Mon 200/2; 12-07 Mon 200/2; 12-14 Mon 100/1; 12-21 Mon 100/1; "; got != want {
		t.Errorf("weeks:\n got %s\nwant %s", got, want)
	}
	if got, want := totals(Month), "11-01 Sun 200/2; 12-01 Tue 600/6; "; got != want {
		t.Errorf("months:\n got %s\nwant %s", got, want)
	}
}

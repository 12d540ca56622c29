package wallet

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// TestVerifyProofUnclaimable: a leaf with a piece of periods of length 0
// cannot be claimed on the production vester from that piece's start until
// the schedule's end (D16). The verification says so, in plain words and
// with the date, and shows no unlocked amount; the proof itself still
// passes. Before the piece starts and after the end, amounts are shown.
func TestVerifyProofUnclaimable(t *testing.T) {
	start := testStart.Unix()
	args := vesting.Args{
		Allocation: vesting.Allocation{ID: "alloc-zero", OriginalBeneficiary: common.Address{1}, TotalAllocation: ether(100)},
		Schedule: vesting.Schedule{Kind: vesting.Interval, UnlockScheduleID: "S-ZERO", Pieces: []vesting.Piece{
			{StartDate: uint32(start), PeriodLength: 0, NumberOfPeriods: 1, Percent: 300_000},
			{StartDate: uint32(start), PeriodLength: 86_400, NumberOfPeriods: 10, Percent: 700_000},
		}},
	}
	data, err := vesting.Encode(args)
	if err != nil {
		t.Fatal(err)
	}
	leaf := merkle.Leaf(data)
	p := &Proof{ID: "alloc-zero", DecodableArgs: data, Hash: &leaf}
	end := testStart.Add(10 * 24 * time.Hour)

	v := VerifyProof(context.Background(), p, VerifyOptions{Now: testStart.Add(time.Hour)})
	if v.Unclaimable == nil || v.Unlocked != nil {
		t.Fatalf("Unclaimable %v, Unlocked %v; want a warning and no amount", v.Unclaimable, v.Unlocked)
	}
	want := "this schedule cannot be claimed on the production vester until " + end.Format("2006-01-02 15:04:05 UTC")
	if !strings.Contains(v.Unclaimable.Error(), want) {
		t.Errorf("warning %q does not say %q", v.Unclaimable, want)
	}
	if v.LeafCheck.State != Pass || v.ScheduleCheck.State != Pass {
		t.Errorf("a sound proof of an unclaimable schedule: leaf %v, schedule %v; the warning is not a failed check", v.LeafCheck, v.ScheduleCheck)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatal(err)
	}
	if j["unlocked"] != nil || !strings.Contains(j["unclaimable"].(string), want) {
		t.Errorf("json unlocked %v, unclaimable %v", j["unlocked"], j["unclaimable"])
	}

	for _, at := range []time.Time{testStart.Add(-time.Second), end} {
		v := VerifyProof(context.Background(), p, VerifyOptions{Now: at})
		wantAmount := new(big.Int)
		if at.Equal(end) {
			wantAmount = ether(100)
		}
		if v.Unclaimable != nil || v.Unlocked == nil || v.Unlocked.Cmp(wantAmount) != 0 {
			t.Errorf("at %s: Unclaimable %v, Unlocked %v; want %s", at, v.Unclaimable, v.Unlocked, wantAmount)
		}
	}
}

package api

import (
	"math/big"
	"slices"
	"testing"
	"unsafe"
)

// TestStakeRowIsCompact: a million rows take at most 96 MB.
func TestStakeRowIsCompact(t *testing.T) {
	if size := unsafe.Sizeof(StakeRow{}); size > 96 {
		t.Errorf("a StakeRow takes %d bytes", size)
	}
}

// TestStakeRowAmounts: amounts compare and add up exactly, in and out of
// base units, and write back as the shortest exact decimal.
func TestStakeRowAmounts(t *testing.T) {
	texts := []string{"1.5", "-2", "0.000000000000000001", "0.0000000000000000015", "115792089237316195423570985008687907853269984665640564039457.584007913129639936", "0", "1.500"}
	var rows []StakeRow
	for _, text := range texts {
		d, err := ParseDecimal(text)
		if err != nil {
			t.Fatal(err)
		}
		r, err := StakeRowOf(Stake{ID: "3f1a2b4c-0000-4000-8000-000000000001", Amount: d, Status: "STAKED", WalletAddress: "0xabcdef0000000000000000000000000000000001"})
		if err != nil {
			t.Fatal(err)
		}
		if r.AmountString() != d.String() {
			t.Errorf("%s writes as %s, want %s", text, r.AmountString(), d.String())
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b StakeRow) int { return CompareAmounts(&a, &b) })
	var order []string
	for i := range rows {
		order = append(order, rows[i].AmountString())
	}
	want := []string{"-2", "0", "0.000000000000000001", "0.0000000000000000015", "1.5", "1.5", "115792089237316195423570985008687907853269984665640564039457.584007913129639936"}
	if !slices.Equal(order, want) {
		t.Errorf("order %q\nwant %q", order, want)
	}
	sum := new(big.Int)
	for i := range rows {
		rows[i].AddAmount(sum)
	}
	// -2 + 1e-18 + 1e-18 (1.5e-18 cut) + 1.5 + 1.5 + 2^256 base units, in base units.
	wantSum, _ := new(big.Int).SetString("115792089237316195423570985008687907853269984665640564039458584007913129639938", 10)
	if sum.Cmp(wantSum) != 0 {
		t.Errorf("sum %s, want %s", sum, wantSum)
	}
	if _, fits := rows[2].AmountBase(); !fits {
		t.Error("1e-18 does not fit base units")
	}
}

package api

import (
	"bytes"
	"cmp"
	"math/big"
	"slices"
	"testing"
	"time"
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

// TestStakeRowSortKeys: for every pair of rows, keys order as the rows
// do (a < b: key(a) <= key(b)), and exact keys tie only for rows that
// compare equal: amounts in and out of base units, past 192 and 256 bits,
// negative and finer than base units; addresses apart only in their last
// bytes; times and none.
func TestStakeRowSortKeys(t *testing.T) {
	amounts := []string{"-2", "-0.5", "0", "0.0000000000000000005", "0.000000000000000001", "0.0000000000000000015", "0.000000000000000002",
		"1", "1.5", "18446744073709551615", "18446744073709551616", "6277101735386680763835789423207666416102355444464034512896", // 2^192 base units
		"6277101735386680763835789423207666416102355444464034512895.999999999999999999", "6277101735386680763835789423207666416102355444464034512895.9999999999999999995",
		"115792089237316195423570985008687907853269984665640564039457.584007913129639935", "115792089237316195423570985008687907853269984665640564039457.584007913129639936"}
	wallets := []string{"0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000100", "0x00000000000000000000000000000001000000FF",
		"0x0000000000000001000000000000000000000000", "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"}
	times := []time.Time{{}, time.UnixMilli(-5).UTC(), time.UnixMilli(0).UTC(), time.UnixMilli(1).UTC(), time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)}
	var rows []StakeRow
	for i, text := range amounts {
		d, err := ParseDecimal(text)
		if err != nil {
			t.Fatal(err)
		}
		r, err := StakeRowOf(Stake{ID: "3f1a2b4c-0000-4000-8000-000000000001", Amount: d, Status: "STAKED",
			WalletAddress: wallets[i%len(wallets)], CreatedAt: Time{times[i%len(times)]}})
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	compareCreated := func(a, b *StakeRow) int {
		if a.HasTime() != b.HasTime() {
			return cmp.Compare(b2i(a.HasTime()), b2i(b.HasTime()))
		}
		return cmp.Compare(a.CreatedAt, b.CreatedAt)
	}
	for _, by := range []struct {
		name    string
		compare func(a, b *StakeRow) int
		key     func(r *StakeRow) ([3]uint64, bool)
	}{
		{"amount", CompareAmounts, (*StakeRow).AmountKey},
		{"wallet", func(a, b *StakeRow) int { return bytes.Compare(a.Wallet[:], b.Wallet[:]) }, (*StakeRow).WalletKey},
		{"created", compareCreated, (*StakeRow).CreatedKey},
	} {
		for i := range rows {
			for j := range rows {
				a, b := &rows[i], &rows[j]
				ka, ea := by.key(a)
				kb, eb := by.key(b)
				c, kc := by.compare(a, b), slices.Compare(ka[:], kb[:])
				if c < 0 && kc > 0 || c > 0 && kc < 0 || ea && eb && c != kc {
					t.Errorf("%s: rows %d and %d compare %d, their keys %d (exact %v %v)", by.name, i, j, c, kc, ea, eb)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

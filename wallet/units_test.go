package wallet

import (
	"errors"
	"math/big"
	"testing"
)

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		text string
		base string
	}{
		{"0", "0"},
		{"1", "1000000000000000000"},
		{"1.5", "1500000000000000000"},
		{"0.000000000000000001", "1"},
		{"123456789012345678901234567890.123456789012345678", "123456789012345678901234567890123456789012345678"},
	} {
		got, err := ParseUnits(tc.text)
		if err != nil || got.String() != tc.base {
			t.Errorf("ParseUnits(%q) = %v, %v; want %s", tc.text, got, err, tc.base)
		}
		want, _ := new(big.Int).SetString(tc.base, 10)
		if s := FormatUnits(want); s != tc.text {
			t.Errorf("FormatUnits(%s) = %q, want %q", tc.base, s, tc.text)
		}
	}
	if FormatUnits(nil) != "0" {
		t.Error("FormatUnits(nil)")
	}
	for _, bad := range []string{"", "-1", "1e18", "0x10", "1.0000000000000000001", "one", "1,5"} {
		if _, err := ParseUnits(bad); !errors.Is(err, ErrAmount) {
			t.Errorf("ParseUnits(%q): %v, want ErrAmount", bad, err)
		}
	}
}

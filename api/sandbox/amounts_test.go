package sandbox

import (
	"math/big"
	"testing"
)

func TestParsePositiveAmount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // base units; "" for an error
	}{
		{"1", "1000000000000000000"},
		{"0.5", "500000000000000000"},
		{"1500.25", "1500250000000000000000"},
		{"0.000000000000000001", "1"},
		{"1e3", "1000000000000000000000"},
		{"1.5E+2", "150000000000000000000"},
		{"25e-1", "2500000000000000000"},
		{"1e-18", "1"},
		{"123456789012345678901234567890", "123456789012345678901234567890000000000000000000"},
		{"0", ""},
		{"-1", ""},
		{"0.0000000000000000001", ""},
		{"1e-19", ""},
		{"01", ""},
		{"1.", ""},
		{".5", ""},
		{"+1", ""},
		{"1e", ""},
		{"1e+", ""},
		{"1e++5", ""},
		{"1e97", ""},
		{"0x10", ""},
		{"NaN", ""},
		{"", ""},
		{" 1", ""},
	} {
		got, err := parsePositiveAmount(tc.in)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%q: %s, want an error", tc.in, got)
		case tc.want != "" && (err != nil || got.String() != tc.want):
			t.Errorf("%q: %v %v, want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestFormatUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"0", "0"},
		{"1", "0.000000000000000001"},
		{"1500000000000000000", "1.5"},
		{"1000000000000000000000", "1000"},
		{"-2500000000000000000", "-2.5"},
	} {
		v, _ := new(big.Int).SetString(tc.in, 10)
		if got := formatUnits(v); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
	}
	for cents, want := range map[uint64]string{0: "0", 5: "0.05", 50: "0.5", 12345: "123.45", 120050: "1200.5", 250000: "2500"} {
		if got := string(appendCents(nil, cents)); got != want {
			t.Errorf("%d cents: %q, want %q", cents, got, want)
		}
	}
}

func FuzzParsePositiveAmount(f *testing.F) {
	for _, s := range []string{"1", "0.5", "1e3", "-1", "1e-19", "1.000000000000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parsePositiveAmount(s)
		if err != nil {
			return
		}
		if v.Sign() <= 0 {
			t.Fatalf("%q: %s is not positive", s, v)
		}
		// What is accepted prints back to the same amount.
		again, err := parsePositiveAmount(formatUnits(v))
		if err != nil || again.Cmp(v) != 0 {
			t.Fatalf("%q: %s prints as %q, which reads as %v (%v)", s, v, formatUnits(v), again, err)
		}
	})
}

func FuzzParseFaults(f *testing.F) {
	f.Add("latency=50ms,error=0.2,malformed=0.1,reset=0.05,html=0.05")
	f.Add("seed=1,reset=1")
	f.Fuzz(func(t *testing.T, spec string) {
		faults, err := ParseFaults(spec)
		if err != nil {
			return
		}
		if err := faults.validate(); err != nil {
			t.Fatalf("%q parsed to invalid %+v: %v", spec, faults, err)
		}
	})
}

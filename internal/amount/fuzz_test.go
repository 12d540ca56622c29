package amount

import (
	"strings"
	"testing"
	"unicode"

	"github.com/shopspring/decimal"
)

// FuzzFormat checks that formatting never changes the value of an
// amount it accepts and never lets a control character through.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{"0", "1234567.5", "-1000.000", "1e18", "2.5E-3", ".5", "abc", "1e999999", "\x1b]52;c;x\a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		out := Format(s)
		for _, r := range out {
			if unicode.IsControl(r) {
				t.Fatalf("Format(%q) = %q carries a control character", s, out)
			}
		}
		if _, _, _, ok := parseDecimal(strings.TrimSpace(s)); !ok {
			return
		}
		in, err := decimal.NewFromString(strings.TrimSpace(s))
		if err != nil {
			return // our grammar accepts a few forms the library does not ("5.")
		}
		got, err := decimal.NewFromString(strings.ReplaceAll(out, ",", ""))
		if err != nil || !got.Equal(in) {
			t.Fatalf("Format(%q) = %q changes the value (%v)", s, out, err)
		}
	})
}

// FuzzAppendTokens checks that AppendTokens writes what Tokens does, for
// any input, after what dst held.
func FuzzAppendTokens(f *testing.F) {
	for _, s := range []string{"0", "0.5", "-1234.500000000000000001", "1250", "007", "1.", ".5", "-", "1e3", " 12", "115792089237316195423570985008687907853269984665640564039457.584007913129639936"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		if got, want := string(AppendTokens([]byte("x|"), []byte(s))), "x|"+Tokens(s); got != want {
			t.Fatalf("AppendTokens(%q) = %q, Tokens %q", s, got, want)
		}
	})
}

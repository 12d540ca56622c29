package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNumbersAreBoundedBeforeArithmetic: a JSON number with an exponent
// is held to MaxAmountDigits digits written out, counted from its text,
// so a megabyte of mantissa or a huge exponent is refused without being
// parsed (decimal parsing is quadratic in digits), with a short message.
func TestNumbersAreBoundedBeforeArithmetic(t *testing.T) {
	nines := strings.Repeat("9", 1<<20)
	digits := func(n int) string { return "1" + strings.Repeat("0", n-1) }
	bad := []string{
		"1" + nines + "e0",
		"1" + nines + "e-1048576",
		"0." + nines + "e5",
		"1e999999999",
		"1e-999999999",
		"1e" + strings.Repeat("0", 1<<20) + "1",
		"1e100", // 101 digits
		"1e-100",
		digits(MaxAmountDigits+1) + ".0e0",
		"1.5e100",
	}
	for _, in := range bad {
		for _, v := range []json.Unmarshaler{new(Decimal), new(Number)} {
			err := json.Unmarshal([]byte(in), v)
			if err == nil {
				t.Errorf("%.40s… accepted as %v", in, v)
				continue
			}
			if len(err.Error()) > 120 {
				t.Errorf("%.40s…: a %d-byte message", in, len(err.Error()))
			}
		}
	}
	good := map[string]string{
		"1e99":                              digits(100),
		"-1.5e3":                            "-1500",
		"12345678901234567890E-18":          "12.34567890123456789",
		"1e-99":                             "0." + strings.Repeat("0", 98) + "1",
		"0.5E+1":                            "5",
		digits(MaxAmountDigits):             digits(MaxAmountDigits),
		`"` + digits(MaxAmountDigits) + `"`: digits(MaxAmountDigits),
	}
	for in, want := range good {
		var n Number
		if err := json.Unmarshal([]byte(in), &n); err != nil || n.String() != want {
			t.Errorf("%.40s -> %s, %v", in, n.String(), err)
		}
	}
}

// TestLongValuesMakeShortErrors: a 10,000-digit value in an answer gives a
// one-line error of a few dozen characters, not the value.
func TestLongValuesMakeShortErrors(t *testing.T) {
	long := strings.Repeat("7", 10000)
	bodies := []string{
		`{"items":[{"id":"a","balance":"` + long + `"}],"total":1}`,
		`{"items":[{"id":"a","balance":` + long + `}],"total":1}`,
		`{"items":[{"id":"a","createdAt":"` + long + `"}],"total":1}`,
		`{"items":[{"id":"a","balance":"1"}],"total":` + long + `}`,
		`{"items":[{"id":"a","balance":"` + long + `x"}],"total":1}`,
		`{"isProcessed":false,"error":{"type":"ValidationError","details":[` + strings.Repeat(`{"path":"`+long+`","message":"`+long+`"},`, 50) + `{}]}}`,
		`{"isProcessed":false,"error":{"type":"NotFoundError","message":"` + long + `"}}`,
		long,
	}
	for _, amount := range []string{long, long + "x", "1e" + long} {
		if _, err := ParseAmount(amount); err == nil || len(err.Error()) > 120 {
			t.Errorf("ParseAmount(%.20s…): %d-byte message", amount, len(err.Error()))
		}
	}
	for _, body := range bodies {
		c := newTestClient(t, reply(200, body), nil)
		_, err := c.Contracts(t.Context(), tokenID)
		if err == nil {
			t.Fatalf("%.60s… accepted", body)
		}
		if len(err.Error()) > 300 || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%.60s…: %d-byte message %.200q", body, len(err.Error()), err)
		}
	}
}

package api

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// maxUint256Text is 2^256-1 base units written in tokens.
const maxUint256Text = "115792089237316195423570985008687907853269984665640564039457.584007913129639935"

// TestParseTokenAmount: the amount rule (D13) as a person's typing meets
// it, in the one place the forms, the CLI and Validate share.
func TestParseTokenAmount(t *testing.T) {
	for _, tt := range []struct{ in, err string }{
		{"1250.5", ""},
		{"1.123456789012345678", ""},
		{"1.1234567890123456780", ""}, // a trailing zero is no 19th decimal
		{" 7 ", ""},
		{maxUint256Text, ""},
		{"1.1234567890123456789", "at most 18 decimals"},
		{"0.0000000000000000001", "at most 18 decimals"},
		{"0", "must be greater than 0"},
		{"-1", "must be greater than 0"},
		{"", "empty amount"},
		{"1e3", "is not a decimal amount"},
		{"115792089237316195423570985008687907853269984665640564039457.584007913129639936", "do not fit a uint256"},
		{"1" + strings.Repeat("0", 60), "do not fit a uint256"},
		// Grouped as the screens write amounts: commas every three digits
		// of the whole part, nowhere else.
		{"1,000", ""},
		{"5,145.7595", ""},
		{"1,234,567.5", ""},
		{"1,00", "is not a decimal amount"},     // a decimal comma, or a typo
		{"1000,000", "is not a decimal amount"}, // groups of three from the left
		{",100", "is not a decimal amount"},
		{"1.000,5", "is not a decimal amount"},
	} {
		_, err := ParseTokenAmount(tt.in)
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ParseTokenAmount(%q) = %v, want %q", tt.in, err, tt.err)
		}
	}
}

// TestParseTokenAmountGrouped: "1,000" is the amount 1000, sent as 1000.
func TestParseTokenAmountGrouped(t *testing.T) {
	n, err := ParseTokenAmount("1,234,567.5")
	if err != nil || n.String() != "1234567.5" {
		t.Errorf("ParseTokenAmount(1,234,567.5) = %v, %v", n, err)
	}
}

// TestBaseUnits: base units come from the number, exact to the last unit,
// and only for what a contract can hold.
func TestBaseUnits(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0", "0"},
		{"1.5", "1500000000000000000"},
		{"1.50", "1500000000000000000"},
		{"0.000000000000000001", "1"},
		{maxUint256Text, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)).String()},
	} {
		got, err := BaseUnits(decimal.RequireFromString(tt.in))
		if err != nil || got.String() != tt.want {
			t.Errorf("BaseUnits(%s) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	for in, want := range map[string]error{
		"-1":                    ErrNegative,
		"0.0000000000000000001": ErrTooPrecise,
		"1e60":                  ErrBeyondUint256,
	} {
		if _, err := BaseUnits(decimal.RequireFromString(in)); !errors.Is(err, want) {
			t.Errorf("BaseUnits(%s): %v, want %v", in, err, want)
		}
	}
}

// TestValidateHoldsTheAmountRule: every request that carries an amount
// refuses, before it is sent, what the forms and the CLI refuse.
func TestValidateHoldsTheAmountRule(t *testing.T) {
	const id = "3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b"
	for _, bad := range []string{"0", "1.1234567890123456789", "1e60"} {
		n := Number{decimal.RequireFromString(bad)}
		fund := &FundDistributionRequest{TokenID: id, Data: []FundItem{{AllocationID: id, Amount: n}}}
		claim := ClaimRequest{Sender: "0x0000000000000000000000000000000000000001", Amount: &n}
		for what, err := range map[string]error{
			"fund":  fund.Validate(),
			"claim": claim.Validate(id),
			"stake": validateStakeParameters(id, n),
		} {
			var verr *ValidationError
			if !errors.As(err, &verr) || len(verr.Fields) != 1 || !strings.HasSuffix(verr.Fields[0].Path, "amount") {
				t.Errorf("%s of %s: %v, want one error on its amount", what, bad, err)
				continue
			}
			if want := CheckAmount(n.Decimal); verr.Fields[0].Message != want.Error() {
				t.Errorf("%s of %s: %q, the rule says %q", what, bad, verr.Fields[0].Message, want)
			}
		}
	}
}

func TestRepeatedAllocation(t *testing.T) {
	const a, b = "3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b", "00000000-0000-4000-8000-000000000001"
	for _, tt := range []struct {
		ids         []string
		first, next int
		ok          bool
	}{
		{[]string{a, b}, 0, 0, false},
		{[]string{a, "", ""}, 0, 0, false},
		{[]string{b, a, " " + strings.ToUpper(a)}, 1, 2, true},
		{[]string{a, b, b, a}, 1, 2, true}, // the first repeat read
	} {
		i, j, ok := RepeatedAllocation(tt.ids)
		if i != tt.first || j != tt.next || ok != tt.ok {
			t.Errorf("RepeatedAllocation(%q) = %d, %d, %v; want %d, %d, %v", tt.ids, i, j, ok, tt.first, tt.next, tt.ok)
		}
	}
}

// TestAmountOnTheWireIsExact: an amount goes out as the service's request
// shapes take it (D7: a JSON number, exact decimals), digit for digit: 38
// digits are not rounded through float64 nor written with an exponent.
func TestAmountOnTheWireIsExact(t *testing.T) {
	const digits = "12345678901234567890123456789012345678.123456789012345678"
	n, err := ParseTokenAmount(digits)
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(ClaimRequest{Sender: "0x0000000000000000000000000000000000000001", Amount: &n})
	if err != nil {
		t.Fatal(err)
	}
	if want := `"amount":` + digits + `}`; !strings.HasSuffix(string(body), want) {
		t.Errorf("body %s, want it to end %s", body, want)
	}
	var back ClaimRequest
	if err := json.Unmarshal(body, &back); err != nil || back.Amount.String() != digits {
		t.Errorf("read back %v, %v", back.Amount, err)
	}
}

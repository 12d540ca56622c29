package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"allot/internal/isotime"
	"allot/internal/sanitize"

	"github.com/shopspring/decimal"
)

// MaxAmountDigits bounds the digits of an amount read from the network or a
// flag, written out in full: 78 digits hold any uint256 in wei, so 100 is
// room for every real amount, while "1e100000" or a megabyte of digits is
// refused before any arithmetic (decimal parsing is quadratic in digits).
const MaxAmountDigits = 100

// maxExponentText bounds the exponent of a JSON number as text, so that it
// is read as an int without overflow; MaxAmountDigits bounds its value.
const maxExponentText = 6

// Decimal is an exact decimal amount (D13). It reads a JSON string or a
// JSON number without going through float64, and writes a JSON string: the
// form the service uses for amounts in responses.
type Decimal struct{ decimal.Decimal }

// Number is a Decimal written as a bare JSON number: the form the service
// takes for amounts and fractions in requests (fund data, claim amount,
// schedule portions), written digit for digit.
type Number struct{ decimal.Decimal }

// ParseAmount reads a decimal amount such as "1250.5". It refuses
// exponents, NaN and more than MaxAmountDigits digits.
func ParseAmount(s string) (Number, error) {
	d, err := parseDecimal(s)
	return Number{d}, err
}

// ParseDecimal reads a decimal like ParseAmount, as a Decimal.
func ParseDecimal(s string) (Decimal, error) {
	d, err := parseDecimal(s)
	return Decimal{d}, err
}

func parseDecimal(s string) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return decimal.Decimal{}, errors.New("empty amount")
	}
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.' || (i == 0 && (r == '-' || r == '+')):
		default:
			return decimal.Decimal{}, fmt.Errorf("%s is not a decimal amount", excerpt(s))
		}
	}
	if digits == 0 || digits > MaxAmountDigits {
		return decimal.Decimal{}, fmt.Errorf("%s is not a decimal amount of at most %d digits", excerpt(s), MaxAmountDigits)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%s is not a decimal amount", excerpt(s))
	}
	return d, nil
}

// parseJSONNumber reads the text of a JSON number, with an exponent or
// not. Its digits, written out in full, are counted from the text before
// any arithmetic: at most MaxAmountDigits.
func parseJSONNumber(s string) (decimal.Decimal, error) {
	refuse := fmt.Errorf("%s is not a decimal amount of at most %d digits", excerpt(s), MaxAmountDigits)
	mantissa, exp, hasExp := strings.Cut(strings.TrimPrefix(s, "-"), "e")
	if !hasExp {
		mantissa, exp, hasExp = strings.Cut(mantissa, "E")
	}
	whole, frac, _ := strings.Cut(mantissa, ".")
	shift := 0
	if hasExp {
		digits := strings.TrimLeft(exp, "+-")
		if len(digits) == 0 || len(digits) > maxExponentText || !allDigits(digits) {
			return decimal.Decimal{}, refuse
		}
		shift, _ = strconv.Atoi(digits)
		if strings.HasPrefix(exp, "-") {
			shift = -shift
		}
	}
	if whole == "" || !allDigits(whole) || !allDigits(frac) || len(whole)+len(frac) > MaxAmountDigits {
		return decimal.Decimal{}, refuse
	}
	// 1.5e3 is 1500: len(whole)+shift digits before the point, at least
	// one, and len(frac)-shift after it, if any.
	if max(len(whole)+shift, 1)+max(len(frac)-shift, 0) > MaxAmountDigits {
		return decimal.Decimal{}, refuse
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, refuse
	}
	return d, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// excerpt quotes the start of a value from the network for a message:
// sanitized and cut, so that a 10,000-digit amount makes a short line.
func excerpt(s string) string {
	return strconv.Quote(sanitize.Truncate(s, maxExcerpt))
}

// maxExcerpt bounds a value quoted in an error: enough to recognise it.
const maxExcerpt = 32

func unmarshalDecimal(data []byte) (decimal.Decimal, error) {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		return decimal.Decimal{}, nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return decimal.Decimal{}, err
		}
		return parseDecimal(s)
	}
	// A JSON number: its text, never a float64.
	return parseJSONNumber(string(data))
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Decimal) UnmarshalJSON(data []byte) error {
	v, err := unmarshalDecimal(data)
	if err != nil {
		return err
	}
	d.Decimal = v
	return nil
}

// MarshalJSON implements json.Marshaler.
func (d Decimal) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON implements json.Unmarshaler.
func (n *Number) UnmarshalJSON(data []byte) error {
	v, err := unmarshalDecimal(data)
	if err != nil {
		return err
	}
	n.Decimal = v
	return nil
}

// MarshalJSON implements json.Marshaler: the exact digits as a JSON number.
func (n Number) MarshalJSON() ([]byte, error) { return []byte(n.String()), nil }

// Time is a service timestamp. It reads any RFC 3339 time (with or without
// milliseconds) and writes D15's form (isotime).
type Time struct{ time.Time }

// UnmarshalJSON implements json.Unmarshaler.
func (t *Time) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("timestamp %s is not ISO 8601", excerpt(s))
	}
	t.Time = v.UTC()
	return nil
}

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(isotime.Format(t.Time))
}

// FormatTime writes t for a table: UTC to the minute, or "-" when unset.
func FormatTime(t Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// MaxAmountDigits bounds the digits of an amount read from the network or a
// flag, so that "1e100000" cannot allocate a huge number.
const MaxAmountDigits = 100

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
			return decimal.Decimal{}, fmt.Errorf("%q is not a decimal amount", s)
		}
	}
	if digits == 0 || digits > MaxAmountDigits {
		return decimal.Decimal{}, fmt.Errorf("%q is not a decimal amount of at most %d digits", s, MaxAmountDigits)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%q is not a decimal amount", s)
	}
	return d, nil
}

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
	// A JSON number: parse its text, never a float64.
	s := string(data)
	if strings.ContainsAny(s, "eE") {
		// Exponent form is valid JSON; bound it before expanding.
		var n json.Number
		if err := json.Unmarshal(data, &n); err != nil {
			return decimal.Decimal{}, err
		}
		d, err := decimal.NewFromString(n.String())
		if err != nil || d.Exponent() < -MaxAmountDigits || d.Exponent() > MaxAmountDigits {
			return decimal.Decimal{}, fmt.Errorf("%q is not a decimal amount of at most %d digits", s, MaxAmountDigits)
		}
		return d, nil
	}
	return parseDecimal(s)
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

// TimeLayout is the service's timestamp form (D15).
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Time is a service timestamp. It reads any RFC 3339 time (with or without
// milliseconds) and writes D15's form.
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
		return fmt.Errorf("timestamp %q is not ISO 8601", truncate(s, 40))
	}
	t.Time = v.UTC()
	return nil
}

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(TimeLayout))
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

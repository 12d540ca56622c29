// Package amount is the one rule by which a person reads an amount on
// screen: the dashboard's tables and details (views/widget) and the signing
// review's lines (wallet) both format through it, so the same value reads
// the same everywhere. Machine output (JSON, CSV) stays ungrouped and exact
// and does not come through here.
package amount

import (
	"bytes"
	"strconv"
	"strings"

	"allot/internal/sanitize"
)

// TokenDecimals is the fewest fraction digits an amount in token units is
// shown with: the tables align amounts on the decimal point with it, and
// every other place shows token amounts the same way.
const TokenDecimals = 2

// Tokens formats an exact decimal amount in token units for people:
// grouped, at least TokenDecimals decimals, never rounded ("5145.7595" ->
// "5,145.7595", "127721.3" -> "127,721.30", "250000" -> "250,000.00").
// Zeros that end the fraction beyond TokenDecimals say nothing and go
// ("2000.0000" -> "2,000.00"), so one balance does not read in two ways.
func Tokens(s string) string { return FormatMin(trimZeros(strings.TrimSpace(s)), TokenDecimals) }

// trimZeros drops the zeros that end a plain decimal's fraction beyond
// TokenDecimals; any other form comes back as it is.
func trimZeros(s string) string {
	i := strings.IndexByte(s, '.')
	if i < 0 || strings.ContainsAny(s, "eE") {
		return s
	}
	keep := max(len(strings.TrimRight(s, "0")), i+1+TokenDecimals)
	return s[:min(keep, len(s))]
}

// AppendTokens appends Tokens(string(s)) to dst. It is for a million
// rows written one after another: a plain decimal ("-1234.5", as
// api.StakeRow writes its amount) is grouped in place, with no string
// made on the way; any other form goes through Tokens.
func AppendTokens(dst, s []byte) []byte {
	neg := len(s) > 0 && s[0] == '-'
	digits := s
	if neg {
		digits = s[1:]
	}
	whole, frac, hasPoint := digits, []byte(nil), false
	if i := bytes.IndexByte(digits, '.'); i >= 0 {
		whole, frac, hasPoint = digits[:i], digits[i+1:], true
	}
	if len(whole) == 0 || whole[0] == '0' && len(whole) > 1 || !allDigits(whole) ||
		hasPoint && (len(frac) == 0 || !allDigits(frac)) {
		return append(dst, Tokens(string(s))...)
	}
	if neg {
		dst = append(dst, '-')
	}
	head := len(whole) % 3
	if head == 0 {
		head = 3
	}
	dst = append(dst, whole[:head]...)
	for i := head; i < len(whole); i += 3 {
		dst = append(dst, ',')
		dst = append(dst, whole[i:i+3]...)
	}
	for len(frac) > TokenDecimals && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1] // as Tokens: "2000.0000" is 2,000.00
	}
	dst = append(append(dst, '.'), frac...)
	for n := len(frac); n < TokenDecimals; n++ {
		dst = append(dst, '0')
	}
	return dst
}

// maxAmountExponent bounds the exponent Format expands ("1e18"): an
// amount string from the network must not make it allocate a gigabyte of
// zeros.
const maxAmountExponent = 100

// Format formats an exact decimal string for people: thousands
// separators in the integer part and every decimal the input had, with no
// rounding and no float ("1234567.5" -> "1,234,567.5", "-1000" -> "-1,000",
// "1.5e3" -> "1,500"). Leading zeros and a "+" sign are dropped. A string
// that is not a decimal number comes back sanitized and otherwise unchanged,
// so a bad value from the server stays visible as what it is.
func Format(s string) string {
	sign, whole, frac, ok := parseDecimal(strings.TrimSpace(s))
	if !ok {
		return sanitize.Line(s)
	}
	out := sign + groupThousands(whole)
	if frac != "" {
		out += "." + frac
	}
	return out
}

// FormatMin is Format with at least decimals fraction digits,
// padded with zeros, so that right-aligned amounts of a column line up on
// the decimal point ("127,721.30" above "3,042,191.07"). Digits are never
// dropped: an amount with more decimals is shown whole, exact.
func FormatMin(s string, decimals int) string {
	out := Format(s)
	if _, _, frac, ok := parseDecimal(strings.TrimSpace(s)); ok && len(frac) < decimals {
		if frac == "" {
			out += "."
		}
		out += strings.Repeat("0", decimals-len(frac))
	}
	return out
}

// parseDecimal splits a decimal number, optionally in exponent form, into
// its sign ("" or "-"), integer digits without leading zeros, and fraction
// digits as written.
func parseDecimal(s string) (sign, whole, frac string, ok bool) {
	if s == "" {
		return "", "", "", false
	}
	switch s[0] {
	case '-':
		sign, s = "-", s[1:]
	case '+':
		s = s[1:]
	}
	mantissa, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > maxAmountExponent || e < -maxAmountExponent {
			return "", "", "", false
		}
		mantissa, exp = s[:i], e
	}
	whole, frac, _ = strings.Cut(mantissa, ".")
	if whole+frac == "" || !allDigits(whole) || !allDigits(frac) {
		return "", "", "", false
	}
	if exp != 0 {
		whole, frac = shiftPoint(whole, frac, exp)
	}
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	return sign, whole, frac, true
}

// shiftPoint moves the decimal point of whole.frac by exp places.
func shiftPoint(whole, frac string, exp int) (string, string) {
	digits := whole + frac
	point := len(whole) + exp
	switch {
	case point <= 0:
		return "0", strings.Repeat("0", -point) + digits
	case point >= len(digits):
		return digits + strings.Repeat("0", point-len(digits)), ""
	default:
		return digits[:point], digits[point:]
	}
}

func allDigits[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// groupThousands puts a comma between every three digits of an integer,
// counted from the right; a leading minus sign stays in front.
func groupThousands(digits string) string {
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= 3 {
		return sign + digits
	}
	var b strings.Builder
	b.Grow(len(sign) + len(digits) + len(digits)/3)
	b.WriteString(sign)
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(digits[:head])
	for i := head; i < len(digits); i += 3 {
		b.WriteByte(',')
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// Percent writes a percentage (an APY) as every screen and table shows
// one: at least two decimals, never rounded, and the sign ("6.50%").
func Percent(s string) string { return FormatMin(s, 2) + "%" }

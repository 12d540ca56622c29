package widget

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"allot/internal/sanitize"
)

// maxAmountExponent bounds the exponent FormatAmount expands ("1e18"): an
// amount string from the network must not make it allocate a gigabyte of
// zeros.
const maxAmountExponent = 100

// FormatAmount formats an exact decimal string for people: thousands
// separators in the integer part and every decimal the input had, with no
// rounding and no float ("1234567.5" -> "1,234,567.5", "-1000" -> "-1,000",
// "1.5e3" -> "1,500"). Leading zeros and a "+" sign are dropped. A string
// that is not a decimal number comes back sanitized and otherwise unchanged,
// so a bad value from the server stays visible as what it is.
func FormatAmount(s string) string {
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

// FormatAmountMin is FormatAmount with at least decimals fraction digits,
// padded with zeros, so that right-aligned amounts of a column line up on
// the decimal point ("127,721.30" above "3,042,191.07"). Digits are never
// dropped: an amount with more decimals is shown whole, exact.
func FormatAmountMin(s string, decimals int) string {
	out := FormatAmount(s)
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

func allDigits(s string) bool {
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

// FormatTime shows t both absolute (in UTC, to the minute) and relative to
// now: "2026-11-22 10:04 UTC (3h ago)", "2026-11-27 10:04 UTC (in 5d)". The
// zero time, which the API uses for "not set", shows as "—".
func FormatTime(t, now time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC") + " (" + relative(t, now) + ")"
}

// relative says how far t is from now in its largest whole unit: "3h ago",
// "in 5d", "just now".
func relative(t, now time.Time) string {
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	const day = 24 * time.Hour
	var s string
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		s = strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d < day:
		s = strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d < 365*day:
		s = strconv.FormatInt(int64(d/day), 10) + "d"
	default:
		s = strconv.FormatInt(int64(d/(365*day)), 10) + "y"
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// FormatDuration shows a span of seconds in its two largest units, the way
// staking periods read best: 90 -> "1m 30s", 2592000 -> "30d",
// 90061 -> "1d 1h", 0 -> "0s".
func FormatDuration(seconds int64) string {
	if seconds == 0 {
		return "0s"
	}
	sign := ""
	// Work in uint64 so that the most negative int64 negates safely.
	u := uint64(seconds)
	if seconds < 0 {
		sign, u = "-", -u
	}
	units := [...]struct {
		size   uint64
		suffix string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}}
	parts := make([]string, 0, 2)
	for _, unit := range units {
		if n := u / unit.size; n > 0 {
			parts = append(parts, strconv.FormatUint(n, 10)+unit.suffix)
			u -= n * unit.size
		} else if len(parts) > 0 {
			// "1d 0h 5m" would read as 1d 5m: stop at the first gap.
			break
		}
		if len(parts) == 2 {
			break
		}
	}
	return sign + strings.Join(parts, " ")
}

// AppendAmountMin appends FormatAmountMin's text of a plain decimal (an
// optional "-", digits, an optional point and digits) without allocating,
// for a screen that writes a million amounts. Any other text is appended
// as it is.
func AppendAmountMin(dst, plain []byte, decimals int) []byte {
	s, neg := bytes.CutPrefix(plain, []byte{'-'})
	whole, frac, _ := bytes.Cut(s, []byte{'.'})
	if !allDigitBytes(whole) || !allDigitBytes(frac) || len(whole)+len(frac) == 0 {
		return append(dst, plain...)
	}
	if neg {
		dst = append(dst, '-')
	}
	whole = bytes.TrimLeft(whole, "0")
	if len(whole) == 0 {
		whole = []byte{'0'}
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, c)
	}
	if len(frac) == 0 && decimals <= 0 {
		return dst
	}
	dst = append(append(dst, '.'), frac...)
	for range decimals - len(frac) {
		dst = append(dst, '0')
	}
	return dst
}

func allDigitBytes(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

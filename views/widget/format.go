package widget

import (
	"bytes"
	"strconv"
	"time"

	"allot/internal/amount"
	"allot/internal/isotime"
)

// FormatAmount formats an exact decimal string for people, grouped and
// exact: amount.Format, the rule the signing review uses too.
func FormatAmount(s string) string { return amount.Format(s) }

// FormatAmountMin is FormatAmount with at least decimals fraction digits:
// amount.FormatMin.
func FormatAmountMin(s string, decimals int) string { return amount.FormatMin(s, decimals) }

// TokenDecimals is the fewest decimals an amount in token units shows,
// for the writers that append without a string (AppendAmountMin).
const TokenDecimals = amount.TokenDecimals

// FormatTokens formats an amount in token units as every screen shows one,
// the tables and the signing review alike: amount.Tokens.
func FormatTokens(s string) string { return amount.Tokens(s) }

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
// staking periods read best: 90 -> "1m 30s", 2592000 -> "30d": isotime.Span,
// the rule the commands write spans with too.
func FormatDuration(seconds int64) string { return isotime.Span(seconds) }

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

package rows

import (
	"strconv"
	"time"

	"allot/internal/isotime"
)

// The Value functions of the descriptions, made from a field's getter.

// String appends a text field.
func String[R any](get func(*R) string) func(*R, []byte) []byte {
	return func(r *R, dst []byte) []byte { return append(dst, get(r)...) }
}

// Decimal appends a decimal field as its String writes it (api.Decimal:
// exact).
func Decimal[R any, D interface{ String() string }](get func(*R) D) func(*R, []byte) []byte {
	return func(r *R, dst []byte) []byte { return append(dst, get(r).String()...) }
}

// Time appends a time field in D15; nothing for the zero time, which the
// service uses for "not set".
func Time[R any](get func(*R) time.Time) func(*R, []byte) []byte {
	return func(r *R, dst []byte) []byte {
		t := get(r)
		if t.IsZero() {
			return dst
		}
		return isotime.Append(dst, t)
	}
}

// Int appends a whole number.
func Int[R any](get func(*R) int64) func(*R, []byte) []byte {
	return func(r *R, dst []byte) []byte { return strconv.AppendInt(dst, get(r), 10) }
}

// Positive appends a whole number, nothing for 0 (a block not mined yet).
func Positive[R any](get func(*R) uint64) func(*R, []byte) []byte {
	return func(r *R, dst []byte) []byte {
		n := get(r)
		if n == 0 {
			return dst
		}
		return strconv.AppendUint(dst, n, 10)
	}
}

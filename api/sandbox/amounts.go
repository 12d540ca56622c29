package sandbox

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// Token amounts travel as decimal strings in token units (D13) and live here
// as integers of base units: tokens have 18 decimals, like the native coin,
// whose fees are written in ether.
const decimals = 18

// maxDecimalLength bounds a decimal number read from a request, and
// maxExponent its exponent, so that "1e999999999" costs nothing.
const (
	maxDecimalLength = 96
	maxExponent      = 96
)

var (
	errNotDecimal     = errors.New("must be a decimal number")
	errTooManyDigits  = errors.New("has more than 18 decimal places")
	errNotPositive    = errors.New("must be greater than 0")
	errDecimalTooLong = errors.New("is too long")
)

// parseDecimal reads a number in JSON's grammar (optional sign, digits,
// optional fraction and exponent) exactly: no float64 on the way.
func parseDecimal(s string) (*big.Rat, error) {
	if len(s) > maxDecimalLength {
		return nil, errDecimalTooLong
	}
	rest := strings.TrimPrefix(s, "-")
	mantissa, exp, hasExp := strings.Cut(rest, "e")
	if !hasExp {
		mantissa, exp, hasExp = strings.Cut(rest, "E")
	}
	whole, frac, hasFrac := strings.Cut(mantissa, ".")
	if !digits(whole) || (len(whole) > 1 && whole[0] == '0') || (hasFrac && !digits(frac)) {
		return nil, errNotDecimal
	}
	e := 0
	if hasExp {
		magnitude := strings.TrimLeft(exp, "+-")
		if len(exp)-len(magnitude) > 1 || !digits(magnitude) {
			return nil, errNotDecimal
		}
		n, err := strconv.Atoi(exp)
		if err != nil || n < -maxExponent || n > maxExponent {
			return nil, errNotDecimal
		}
		e = n
	}
	num, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return nil, errNotDecimal
	}
	if rest != s {
		num.Neg(num)
	}
	e -= len(frac)
	r := new(big.Rat).SetInt(num)
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil))
	if e < 0 {
		return r.Quo(r, scale), nil
	}
	return r.Mul(r, scale), nil
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// parsePositiveAmount reads a token amount greater than zero and returns it
// in base units.
func parsePositiveAmount(s string) (*big.Int, error) {
	r, err := parseDecimal(s)
	if err != nil {
		return nil, err
	}
	if r.Sign() <= 0 {
		return nil, errNotPositive
	}
	r.Mul(r, new(big.Rat).SetInt(unit))
	if !r.IsInt() {
		return nil, errTooManyDigits
	}
	return new(big.Int).Set(r.Num()), nil
}

// unit is one token (or one ether) in base units.
var unit = new(big.Int).Exp(big.NewInt(10), big.NewInt(decimals), nil)

// formatUnits writes base units as a decimal string in whole units, without
// trailing zeros: 1500000000000000000 -> "1.5".
func formatUnits(v *big.Int) string {
	if v == nil {
		return "0"
	}
	q, r := new(big.Int).QuoRem(new(big.Int).Abs(v), unit, new(big.Int))
	s := q.String()
	if r.Sign() != 0 {
		frac := strings.TrimRight(leftPad(r.String(), decimals), "0")
		s += "." + frac
	}
	if v.Sign() < 0 {
		s = "-" + s
	}
	return s
}

func leftPad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat("0", n-len(s)) + s
}

// units returns whole*10^18 + frac, where frac is in 10^-fracDigits units:
// units(12, 5, 1) is 12.5 tokens.
func units(whole int64, frac int64, fracDigits int) *big.Int {
	v := new(big.Int).Mul(big.NewInt(whole), unit)
	if frac != 0 {
		f := new(big.Int).Mul(big.NewInt(frac), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals-fracDigits)), nil))
		v.Add(v, f)
	}
	return v
}

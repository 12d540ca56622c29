package wallet

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"allot/internal/sanitize"

	"github.com/shopspring/decimal"
)

// Decimals is the number of decimals of every chain amount allot handles:
// the tokens and the native coin (D13).
const Decimals = 18

// maxAmountLength bounds a decimal amount read from the network or a user.
const maxAmountLength = 100

// FormatUnits writes base units as an exact decimal in token units:
// 1500000000000000000 -> "1.5". Nil is "0".
func FormatUnits(baseUnits *big.Int) string {
	if baseUnits == nil {
		return "0"
	}
	return decimal.NewFromBigInt(baseUnits, -Decimals).String()
}

// ErrAmount is wrapped by ParseUnits errors.
var ErrAmount = errors.New("invalid amount")

// ParseUnits reads a decimal amount in token units ("1.5") as base units. It
// refuses negative amounts, exponents, and more than Decimals decimals,
// which no base-unit amount has.
func ParseUnits(s string) (*big.Int, error) {
	if s == "" || len(s) > maxAmountLength || strings.ContainsAny(s, "eE") {
		return nil, fmt.Errorf("%w: %q is not a decimal amount", ErrAmount, sanitize.Truncate(s, 40))
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is not a decimal amount", ErrAmount, sanitize.Truncate(s, 40))
	}
	if d.Sign() < 0 {
		return nil, fmt.Errorf("%w: %s is negative", ErrAmount, sanitize.Truncate(s, 40))
	}
	scaled := d.Shift(Decimals)
	if !scaled.IsInteger() {
		return nil, fmt.Errorf("%w: %s has more than %d decimals", ErrAmount, sanitize.Truncate(s, 40), Decimals)
	}
	return scaled.BigInt(), nil
}

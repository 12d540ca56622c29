package api

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/shopspring/decimal"
)

// Decimals is the number of decimals of every chain amount allot handles:
// the tokens' and the native coin's (D13).
const Decimals = 18

// maxUint256 is the largest amount a contract holds, in base units.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// The amount rule's refusals, each a whole sentence after the field's name.
var (
	ErrNotPositive   = errors.New("must be greater than 0")
	ErrNegative      = errors.New("must not be negative")
	ErrTooPrecise    = fmt.Errorf("at most %d decimals: the token has no smaller unit", Decimals)
	ErrBeyondUint256 = errors.New("too large: its base units do not fit a uint256")
)

// BaseUnits returns d in base units (d × 10^18): the exact integer a
// contract is given. It refuses what no base-unit amount is: a negative
// value, more than Decimals decimals, more than a uint256.
func BaseUnits(d decimal.Decimal) (*big.Int, error) {
	if d.IsNegative() {
		return nil, ErrNegative
	}
	scaled := d.Shift(Decimals)
	// 1.50 has two decimals typed but one in value; base units count the
	// value's.
	if !scaled.IsInteger() {
		return nil, ErrTooPrecise
	}
	units := scaled.BigInt()
	if units.Cmp(maxUint256) > 0 {
		return nil, ErrBeyondUint256
	}
	return units, nil
}

// CheckAmount is the rule of every amount the service takes (D13): greater
// than 0, at most 18 decimals, and its base units fit a uint256. Validate,
// the dashboard's forms and the CLI all check it, before anything is sent,
// journaled or signed.
func CheckAmount(d decimal.Decimal) error {
	if !d.IsPositive() {
		return ErrNotPositive
	}
	_, err := BaseUnits(d)
	return err
}

// ParseTokenAmount reads an amount a person typed (a form's field, a
// flag) under CheckAmount's rule. It takes it grouped as the screens
// write amounts ("5,145.7595"), a comma every three digits of the whole
// part, or not grouped at all; a comma anywhere else is refused, not
// guessed at ("1,00" may be a decimal comma).
func ParseTokenAmount(s string) (Number, error) {
	if strings.TrimSpace(s) == "" {
		return Number{}, errors.New("empty amount")
	}
	n, err := ParseAmount(ungroup(s))
	if err != nil {
		return Number{}, err
	}
	if err := CheckAmount(n.Decimal); err != nil {
		return Number{}, err
	}
	return n, nil
}

// ungroup removes the commas of a whole part grouped by threes; any
// other text is returned as it is, for ParseAmount to judge (and name as
// typed).
func ungroup(s string) string {
	t := strings.TrimSpace(s)
	whole, frac, hasFrac := strings.Cut(t, ".")
	groups := strings.Split(whole, ",")
	if len(groups) == 1 || len(groups[0]) == 0 || len(groups[0]) > 3 {
		return s
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return s
		}
	}
	out := strings.Join(groups, "")
	if hasFrac {
		out += "." + frac
	}
	return out
}

package wallet

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"allot/api"
	"allot/internal/amount"
	"allot/internal/sanitize"

	"github.com/shopspring/decimal"
)

// Decimals is the number of decimals of every chain amount allot handles
// (api.Decimals).
const Decimals = api.Decimals

// FormatUnits writes base units as an exact decimal in token units:
// 1500000000000000000 -> "1.5". Nil is "0".
func FormatUnits(baseUnits *big.Int) string {
	if baseUnits == nil {
		return "0"
	}
	return decimal.NewFromBigInt(baseUnits, -Decimals).String()
}

// FormatTokens writes base units in token units the way a person reads
// them on every screen, the tables' rule (amount.Tokens): grouped, at least
// two decimals, exact ("5,145.7595", "250.00"). Machine output keeps
// FormatUnits.
func FormatTokens(baseUnits *big.Int) string { return amount.Tokens(FormatUnits(baseUnits)) }

// ErrAmount is wrapped by ParseUnits errors.
var ErrAmount = errors.New("invalid amount")

// ParseUnits reads a decimal amount in token units ("1.5") as base units,
// by api.BaseUnits: it refuses negative amounts, exponents, more than
// Decimals decimals and more than a uint256. Zero is an amount here (a
// fee); what a person asks to send is held to api.CheckAmount.
func ParseUnits(s string) (*big.Int, error) {
	if strings.TrimSpace(s) != s {
		return nil, fmt.Errorf("%w: %q is not a decimal amount", ErrAmount, sanitize.Truncate(s, 40))
	}
	d, err := api.ParseAmount(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAmount, err)
	}
	units, err := api.BaseUnits(d.Decimal)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrAmount, sanitize.Truncate(s, 40), err)
	}
	return units, nil
}

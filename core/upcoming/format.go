package upcoming

import (
	"math/big"

	"github.com/shopspring/decimal"

	"allot/internal/amount"
	"allot/wallet"
)

// Decimals is how many decimals an unlock or a total shows, in the
// dashboard's :upcoming and allot upcoming's table alike: an unlock is a
// share of the allocation (its percent), so it runs to 18 decimals of
// repeating digits ("11,137.372909722222222223") that push the token off
// the line. The exact figures are in allot upcoming -o csv and -o json.
const Decimals = 4

// FormatAmount writes base units of a token as every screen writes an
// amount (amount.Tokens), rounded down to Decimals so it never reads more
// than unlocks; "0.00" for nil.
func FormatAmount(units *big.Int) string {
	if units == nil {
		return "0.00"
	}
	return amount.Tokens(decimal.NewFromBigInt(units, -wallet.Decimals).Truncate(Decimals).String())
}

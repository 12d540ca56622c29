package views

import (
	"errors"
	"fmt"
	"strings"

	"allot/api"
	"allot/wallet"
)

// TokenAmount reads an amount typed into a form with the rules the service
// applies to every amount it takes: a decimal greater than 0 with at most
// 18 decimals (D13), so that what passes here is never refused for its form
// after the confirm.
func TokenAmount(v string) (api.Number, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return api.Number{}, errors.New("empty amount")
	}
	n, err := api.ParseAmount(v)
	if err != nil {
		return api.Number{}, err
	}
	if !n.IsPositive() {
		return api.Number{}, errors.New("must be greater than 0")
	}
	// 1.50 has two decimals typed but one in value; the service counts
	// the value's, as base units do.
	if !n.Shift(wallet.Decimals).IsInteger() {
		return api.Number{}, fmt.Errorf("at most %d decimals: the token has no smaller unit", wallet.Decimals)
	}
	return n, nil
}

package browse

import (
	"allot/internal/sanitize"
	"allot/views"
)

// maxUnit bounds the unit a column title or a value names: a token named
// by a long name and no symbol must not push the amounts off the table.
const maxUnit = 12

// unit is the current token's symbol (its name when it has none) as the
// header names it, "" when the profile and the sandbox name it neither:
// the interface has no call that names a token, and a 36-character id
// beside every amount says nothing a person reads.
func unit(ctx *views.Context) string {
	if ctx.Session == nil {
		return ""
	}
	n, ok := ctx.Session.TokenName(ctx.Token)
	if !ok {
		return ""
	}
	return sanitize.Truncate(n.Short(), maxUnit)
}

// titled is a column title naming the unit of its amounts ("Balance
// (MRD)"), or the title alone when the token has no name.
func titled(title, unit string) string {
	if unit == "" {
		return title
	}
	return title + " (" + unit + ")"
}

// amountIn is an amount of the details followed by its unit, as every
// review writes it ("1,000.00 MRD").
func amountIn(amount, unit string) string {
	if unit == "" {
		return amount
	}
	return amount + " " + unit
}

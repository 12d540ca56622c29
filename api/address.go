package api

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// CheckAddress returns a validation error unless v is an address as people
// type one: 0x and 40 hex digits, all lower case, all upper case, or mixed
// case spelling its EIP-55 checksum. A mixed-case address with a wrong
// checksum is a typo somewhere: it is refused, and the message gives the
// correctly checksummed form of what was typed, as foundry's cast does.
// what names the value in the message ("--sender").
func CheckAddress(what, v string) error {
	var c checker
	c.address(what, v)
	return c.err()
}

// checksumFix returns the EIP-55 form of v, and true, when v is mixed case
// and not that form. v is 0x and 40 hex digits.
func checksumFix(v string) (string, bool) {
	digits := v[2:]
	if digits == strings.ToLower(digits) || digits == strings.ToUpper(digits) {
		return "", false
	}
	want := common.HexToAddress(v).Hex()
	return want, want != v
}

package wallet

import "github.com/ethereum/go-ethereum/common"

// Checksummed is an address written in JSON as the screens write it,
// EIP-55 (common.Address's own JSON is lower case). It reads back into a
// common.Address as it is.
type Checksummed common.Address

// MarshalText writes the address EIP-55 checksummed.
func (a Checksummed) MarshalText() ([]byte, error) { return []byte(common.Address(a).Hex()), nil }

package sandbox

import (
	"crypto/ecdsa"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/google/uuid"
)

// namespace is the UUID namespace of every seed id: an id is the version 5
// UUID of its kind and name in it, so the same record gets the same id on
// every start, on every machine.
var namespace = uuid.MustParse("2f4c7b1e-8d3a-5e6f-9a0b-c1d2e3f40516")

// seedID returns the deterministic id of the record of kind named name.
func seedID(kind, name string) string {
	return uuid.NewSHA1(namespace, []byte(kind+"/"+name)).String()
}

// syntheticAddress is the address of a seed record that lives on no chain:
// keccak256 of a label, like a contract address, stable across starts.
func syntheticAddress(label string) common.Address {
	return common.BytesToAddress(crypto.Keccak256([]byte("allot sandbox address/" + label)))
}

// demoKey derives demo wallet n's private key from a fixed label. The keys
// are public knowledge (this source) and must never hold anything of value.
func demoKey(n int) (*ecdsa.PrivateKey, error) {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte(fmt.Sprintf("allot sandbox demo wallet %d", n))))
	if err != nil {
		return nil, fmt.Errorf("demo wallet %d key: %w", n, err)
	}
	return key, nil
}

// isUUID reports whether s is a UUID in its canonical textual form (8-4-4-4-12
// hexadecimal digits, either case), the only form the interface uses (D14).
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

// normalizeID is the form ids are looked up in: lowercase.
func normalizeID(s string) string { return strings.ToLower(s) }

// parseAddress reads an address written as 0x and 40 hexadecimal digits in
// any case: addresses are matched case-insensitively, so a checksum is not
// required.
func parseAddress(s string) (common.Address, bool) {
	if len(s) != 42 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return common.Address{}, false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return common.Address{}, false
		}
	}
	return common.HexToAddress(s), true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

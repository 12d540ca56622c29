package config

import (
	"errors"
	"fmt"
	"strings"

	"allot/wallet"

	"github.com/ethereum/go-ethereum/common"
)

// Pins are the contracts a profile trusts as the targets of what it signs
// (docs/deployment.md D17): [profiles.NAME.pins] vesters, staking and tokens, lists of
// addresses. A list that is set is the only one allowed; an empty one lets
// the chain's checks alone decide, and the review says so.
type Pins struct {
	Vesters []string `toml:"vesters"`
	Staking []string `toml:"staking"`
	Tokens  []string `toml:"tokens"`
}

// SigningPins reads the profile's pins and max_native_fee (ether, exact
// decimal; empty is wallet.DefaultMaxNativeFee) for the signing policy.
func (p Profile) SigningPins() (wallet.Pins, error) {
	var out wallet.Pins
	var problems []error
	for _, list := range []struct {
		key  string
		from []string
		into *[]common.Address
	}{{"pins.vesters", p.Pins.Vesters, &out.Vesters}, {"pins.staking", p.Pins.Staking, &out.Staking}, {"pins.tokens", p.Pins.Tokens, &out.Tokens}} {
		for i, v := range list.from {
			addr, err := checksummed(v)
			if err != nil {
				problems = append(problems, fmt.Errorf("%s[%d]: %w", list.key, i, err))
				continue
			}
			*list.into = append(*list.into, addr)
		}
	}
	if p.MaxNativeFee != "" {
		fee, err := wallet.ParseUnits(p.MaxNativeFee)
		if err != nil {
			problems = append(problems, fmt.Errorf("max_native_fee: %w (ether, e.g. \"0.01\")", err))
		}
		out.MaxNativeFee = fee
	}
	return out, errors.Join(problems...)
}

// checksummed reads an address; one in mixed case must carry its EIP-55
// checksum, as a typo in a pinned address must not pin another.
func checksummed(v string) (common.Address, error) {
	if !common.IsHexAddress(v) || !strings.HasPrefix(v, "0x") {
		return common.Address{}, fmt.Errorf("%q is not a 0x address", v)
	}
	addr := common.HexToAddress(v)
	hex := v[2:]
	if hex != strings.ToLower(hex) && hex != strings.ToUpper(hex) && v != addr.Hex() {
		return common.Address{}, fmt.Errorf("%q has a wrong EIP-55 checksum: %s is the checksummed address", v, addr.Hex())
	}
	return addr, nil
}

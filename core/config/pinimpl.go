package config

import (
	"maps"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
)

// A pinned proxy's implementation is kept beside its code hash, keyed by
// the proxy's address: [profiles.NAME.pins.implementations] its address,
// [profiles.NAME.pins.implementation_hashes] its code's hash.

// The tables of a profile's pins that hold a proxy's implementation.
const (
	implementationsKey      = "implementations"
	implementationHashesKey = "implementation_hashes"
)

// editImplementation records edit's implementation in the text's pins
// table, or takes the proxy's out when it has none now or is unpinned
// (remove: not pinned in another list either).
func editImplementation(text string, pins []string, edit PinEdit, remove bool) (string, error) {
	addrs, hashes := append(pins[:len(pins):len(pins)], implementationsKey), append(pins[:len(pins):len(pins)], implementationHashesKey)
	var err error
	if remove || edit.Implementation == (common.Address{}) {
		if text, err = removeCodeHash(text, addrs, edit.Address); err != nil {
			return "", err
		}
		return removeCodeHash(text, hashes, edit.Address)
	}
	if text, err = setEntry(text, addrs, edit.Address, strconv.Quote(edit.Implementation.Hex())); err != nil {
		return "", err
	}
	return setEntry(text, hashes, edit.Address, strconv.Quote(edit.ImplementationHash.Hex()))
}

// expectImplementation applies editImplementation's change to decoded pins.
func expectImplementation(pins *Pins, edit PinEdit, remove bool) {
	impls, hashes := maps.Clone(pins.Implementations), maps.Clone(pins.ImplementationHashes)
	for k := range impls {
		if sameAddress(k, edit.Address) {
			delete(impls, k)
		}
	}
	for k := range hashes {
		if sameAddress(k, edit.Address) {
			delete(hashes, k)
		}
	}
	if !remove && edit.Implementation != (common.Address{}) {
		if impls == nil {
			impls, hashes = map[string]string{}, map[string]string{}
		}
		impls[edit.Address.Hex()] = edit.Implementation.Hex()
		hashes[edit.Address.Hex()] = edit.ImplementationHash.Hex()
	}
	pins.Implementations, pins.ImplementationHashes = impls, hashes
}

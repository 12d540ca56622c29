package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"allot/wallet"

	"github.com/ethereum/go-ethereum/common"
)

// Pins are the contracts a profile trusts as the targets of what it signs
// (docs/deployment.md D17, as amended): [profiles.NAME.pins] vesters,
// staking, tokens and handlers, lists of addresses, and code_hashes, the
// keccak256 hash of each pinned contract's code as it was when pinned,
// keyed by address, and for a proxy its implementation and that
// implementation's code hash. A claim or a stake signs only for pinned
// contracts whose code (and logic behind a proxy) is still the one
// pinned. `allot pin` edits them.
type Pins struct {
	Vesters    []string          `toml:"vesters" json:"vesters,omitempty"`
	Staking    []string          `toml:"staking" json:"staking,omitempty"`
	Tokens     []string          `toml:"tokens" json:"tokens,omitempty"`
	Handlers   []string          `toml:"handlers" json:"handlers,omitempty"`
	CodeHashes map[string]string `toml:"code_hashes" json:"codeHashes,omitempty"`
	// Implementations and ImplementationHashes are, for each pinned proxy
	// (keyed by its address), the implementation it delegated to when
	// pinned and that implementation's code hash.
	Implementations      map[string]string `toml:"implementations" json:"implementations,omitempty"`
	ImplementationHashes map[string]string `toml:"implementation_hashes" json:"implementationHashes,omitempty"`
}

// TOML writes the pins as the [profiles.NAME.pins] table of profile, and
// its code_hashes table, for a user to paste into a configuration.
func (p Pins) TOML(profile string) string {
	var b strings.Builder
	table := "profiles." + quoteKey(profile) + ".pins"
	fmt.Fprintf(&b, "[%s]\n", table)
	for _, kind := range wallet.PinKinds {
		list := *p.list(kind)
		if len(list) == 0 {
			continue
		}
		key, _ := listKey(kind)
		fmt.Fprintf(&b, "%s = [\n", key)
		for _, v := range list {
			fmt.Fprintf(&b, "  %q,\n", v)
		}
		b.WriteString("]\n")
	}
	writeMap(&b, table+".code_hashes", p.CodeHashes)
	writeMap(&b, table+"."+implementationsKey, p.Implementations)
	writeMap(&b, table+"."+implementationHashesKey, p.ImplementationHashes)
	return b.String()
}

// writeMap writes m, when it has entries, as the TOML table named table,
// its keys in order.
func writeMap(b *strings.Builder, table string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(b, "[%s]\n", table)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(b, "%q = %q\n", k, m[k])
	}
}

// Holds reports whether p pins addr in any list.
func (p Pins) Holds(addr common.Address) bool {
	for _, kind := range wallet.PinKinds {
		for _, v := range *p.list(kind) {
			if sameAddress(v, addr) {
				return true
			}
		}
	}
	return false
}

// SigningPins reads the profile's pins and max_native_fee (ether, exact
// decimal; empty is wallet.DefaultMaxNativeFee) for the signing policy.
func (p Profile) SigningPins() (wallet.Pins, error) {
	out, err := p.Pins.Signing()
	var problems []error
	if err != nil {
		problems = append(problems, err)
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

// Signing reads the pins' addresses and code hashes.
func (p Pins) Signing() (wallet.Pins, error) {
	var out wallet.Pins
	var problems []error
	for _, kind := range wallet.PinKinds {
		key, _ := listKey(kind)
		for i, v := range *p.list(kind) {
			addr, err := checksummed(v)
			if err != nil {
				problems = append(problems, fmt.Errorf("pins.%s[%d]: %w", key, i, err))
				continue
			}
			into := out.List(kind)
			out.SetList(kind, append(into, addr))
		}
	}
	for k, v := range p.CodeHashes {
		addr, err := checksummed(k)
		if err != nil {
			problems = append(problems, fmt.Errorf("pins.code_hashes: key %w", err))
			continue
		}
		hash, err := codeHash(v)
		if err != nil {
			problems = append(problems, fmt.Errorf("pins.code_hashes.%s: %w", addr.Hex(), err))
			continue
		}
		if out.CodeHashes == nil {
			out.CodeHashes = map[common.Address]common.Hash{}
		}
		out.CodeHashes[addr] = hash
	}
	impls, err := p.implementations()
	out.Implementations = impls
	return out, errors.Join(append(problems, err)...)
}

// implementations reads the pinned proxies' implementations: each proxy
// with both its implementation's address and code hash.
func (p Pins) implementations() (map[common.Address]wallet.Proxy, error) {
	var problems []error
	out := map[common.Address]wallet.Proxy{}
	for k, v := range p.Implementations {
		proxy, err := checksummed(k)
		if err != nil {
			problems = append(problems, fmt.Errorf("pins.%s: key %w", implementationsKey, err))
			continue
		}
		impl, err := checksummed(v)
		if err != nil {
			problems = append(problems, fmt.Errorf("pins.%s.%s: %w", implementationsKey, proxy.Hex(), err))
			continue
		}
		out[proxy] = wallet.Proxy{Implementation: impl}
	}
	for k, v := range p.ImplementationHashes {
		proxy, err := checksummed(k)
		if err != nil {
			problems = append(problems, fmt.Errorf("pins.%s: key %w", implementationHashesKey, err))
			continue
		}
		hash, err := codeHash(v)
		recorded, ok := out[proxy]
		switch {
		case err != nil:
			problems = append(problems, fmt.Errorf("pins.%s.%s: %w", implementationHashesKey, proxy.Hex(), err))
		case !ok:
			problems = append(problems, fmt.Errorf("pins.%s.%s: no implementation recorded for it in pins.%s", implementationHashesKey, proxy.Hex(), implementationsKey))
		default:
			recorded.CodeHash = hash
			out[proxy] = recorded
		}
	}
	for proxy, recorded := range out {
		if recorded.CodeHash == (common.Hash{}) {
			problems = append(problems, fmt.Errorf("pins.%s.%s: no code hash recorded for its implementation in pins.%s", implementationsKey, proxy.Hex(), implementationHashesKey))
		}
	}
	if len(out) == 0 {
		out = nil
	}
	return out, errors.Join(problems...)
}

// codeHash reads a 0x-prefixed 32-byte hash.
func codeHash(v string) (common.Hash, error) {
	hex, ok := strings.CutPrefix(v, "0x")
	if !ok || len(hex) != 64 || strings.Trim(strings.ToLower(hex), "0123456789abcdef") != "" {
		return common.Hash{}, fmt.Errorf("%q is not a 0x code hash of 64 hex digits", v)
	}
	return common.HexToHash(v), nil
}

// ParseAddress reads an address as a pin takes it: 0x and 40 hex digits,
// with its EIP-55 checksum when in mixed case.
func ParseAddress(v string) (common.Address, error) { return checksummed(v) }

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

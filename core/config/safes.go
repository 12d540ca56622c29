package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/atomicfile"
	"allot/internal/sanitize"
)

// MaxSafes bounds a profile's Safes: each is read from the chain (a
// handful of calls) every time the dashboard's accounts are, and a team
// works with a few.
const MaxSafes = 20

// checkSafes refuses a safes list that is too long, holds something that
// is not an address (one in mixed case must carry its EIP-55 checksum, as
// a typo must not name another account), or names a Safe twice.
func checkSafes(safes []string) error {
	if len(safes) > MaxSafes {
		return fmt.Errorf("safes: %d addresses, more than %d", len(safes), MaxSafes)
	}
	var problems []error
	seen := map[common.Address]int{}
	for i, v := range safes {
		if len(v) != 42 {
			problems = append(problems, fmt.Errorf("safes[%d]: %q is not a 0x address", i, sanitize.Truncate(v, 50)))
			continue
		}
		addr, err := checksummed(v)
		if err != nil {
			problems = append(problems, fmt.Errorf("safes[%d]: %w", i, err))
			continue
		}
		if j, ok := seen[addr]; ok {
			problems = append(problems, fmt.Errorf("safes[%d]: %s is safes[%d] again", i, addr.Hex(), j))
			continue
		}
		seen[addr] = i
	}
	return errors.Join(problems...)
}

// SafeAddresses are the profile's Safes, in the order it lists them. The
// list was checked when the profile was parsed.
func (p Profile) SafeAddresses() []common.Address {
	out := make([]common.Address, 0, len(p.Safes))
	for _, v := range p.Safes {
		out = append(out, common.HexToAddress(v))
	}
	return out
}

// ListsSafe reports whether the profile lists addr among its Safes.
func (p Profile) ListsSafe(addr common.Address) bool {
	return slices.ContainsFunc(p.Safes, func(v string) bool { return sameAddress(v, addr) })
}

// ErrSafeNotListed: `allot safe remove` of a Safe the profile does not list.
var ErrSafeNotListed = errors.New("the profile does not list this Safe")

// EditSafes adds addr to the safes of profile in the configuration text
// src (remove: takes it out), leaving every other byte as it was, and
// returns the new text. Adding a Safe listed already changes nothing. The
// result is parsed again and must decode to src's configuration with only
// that Safe changed, as a pin's edit must (EditPins).
func EditSafes(src []byte, profile string, addr common.Address, remove bool) ([]byte, error) {
	before, err := Parse(src)
	if err != nil {
		return nil, err
	}
	p, ok := before.Profiles[profile]
	if !ok {
		return nil, fmt.Errorf("no profile %q (have: %s)", profile, strings.Join(before.ProfileNames(), ", "))
	}
	table := []string{"profiles", profile}
	var text string
	switch {
	case remove && !p.ListsSafe(addr):
		return nil, fmt.Errorf("%s: %w", addr.Hex(), ErrSafeNotListed)
	case remove:
		text, err = removePin(string(src), table, "safes", addr)
	case p.ListsSafe(addr):
		return src, nil
	case len(p.Safes) >= MaxSafes:
		return nil, fmt.Errorf("profile %q lists %d Safes, the most a profile may", profile, len(p.Safes))
	default:
		text, err = addPin(string(src), table, "safes", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("edit the safes of profile %q: %w", profile, err)
	}
	after, err := Parse([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("edit the safes of profile %q: the edited file would not parse (%v): nothing was changed; edit it by hand", profile, err)
	}
	want := *before
	want.Profiles = map[string]Profile{}
	for name, q := range before.Profiles {
		want.Profiles[name] = q
	}
	if remove {
		p.Safes = slices.DeleteFunc(slices.Clone(p.Safes), func(v string) bool { return sameAddress(v, addr) })
	} else {
		p.Safes = append(slices.Clone(p.Safes), addr.Hex())
	}
	want.Profiles[profile] = p
	for _, c := range []*Config{&want, after} {
		c.Path, c.Warnings = "", nil
	}
	if !reflect.DeepEqual(normalize(&want), normalize(after)) {
		return nil, fmt.Errorf("edit the safes of profile %q: the edited file would change more than the Safe: nothing was changed; edit it by hand", profile)
	}
	return []byte(text), nil
}

// EditSafesFile is EditSafes on the configuration file at path, written
// as a pin is (EditPinsFile): under the lock beside it, atomically, its
// mode kept, a read-only or another user's file refused, and read back.
func EditSafesFile(path, profile string, addr common.Address, remove bool) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("list a Safe in %s: %w", path, err)
	}
	unlock, err := lockBeside(real)
	if err != nil {
		return fmt.Errorf("list a Safe in %s: %w", path, err)
	}
	defer unlock()
	src, info, err := readFile(real)
	if err != nil {
		return fmt.Errorf("list a Safe in %s: %w", path, err)
	}
	if err := replaceable(info); err != nil {
		return fmt.Errorf("list a Safe in %s: %w", path, err)
	}
	text, err := editLineEnds(src, func(src []byte) ([]byte, error) { return EditSafes(src, profile, addr, remove) })
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if string(text) == string(src) {
		return nil
	}
	if err := atomicfile.WriteMode(real, text, info.Mode()); err != nil {
		return err
	}
	// Done only when the file says so.
	back, _, err := readFile(real)
	if err != nil {
		return fmt.Errorf("list a Safe in %s: read it back: %w", path, err)
	}
	cfg, err := Parse(back)
	if err != nil {
		return fmt.Errorf("list a Safe in %s: read it back: %w", path, err)
	}
	if cfg.Profiles[profile].ListsSafe(addr) == remove {
		return fmt.Errorf("list a Safe in %s: read back, the file does not hold the change of %s", path, addr.Hex())
	}
	return nil
}

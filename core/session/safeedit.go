package session

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/safe"
)

// RefusedSafe is a contract the canonical checks refuse (safe.ErrNotSafe,
// safe.ErrBadAnswer): `allot safe add` and the dashboard's :safe add say
// the same reason and list nothing.
type RefusedSafe struct{ Err error }

func (e RefusedSafe) Error() string { return "no Safe allot works with: " + e.Err.Error() }
func (e RefusedSafe) Unwrap() error { return e.Err }

// SafeToAdd reads the Safe at addr before the profile lists it: why the
// profile's Safes cannot be edited, a RefusedSafe, or the Safe as the
// chain holds it and whether the profile lists it already.
func (s *Session) SafeToAdd(ctx context.Context, addr common.Address) (info safe.Info, listed bool, err error) {
	if err := s.SafesEditable(); err != nil {
		return info, false, err
	}
	node, err := s.SafeNode()
	if err != nil {
		return info, false, err
	}
	// Read first: a contract safe.Read refuses is never listed.
	info, err = safe.Read(ctx, node, addr)
	if errors.Is(err, safe.ErrNotSafe) || errors.Is(err, safe.ErrBadAnswer) {
		return info, false, RefusedSafe{err}
	}
	if err != nil {
		return info, false, fmt.Errorf("read the Safe %s: %w", addr.Hex(), err)
	}
	addrs, err := s.ProfileSafes()
	if err != nil {
		return info, false, err
	}
	return info, slices.Contains(addrs, addr), nil
}

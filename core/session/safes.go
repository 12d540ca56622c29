package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/wallet/safe"
)

// The Safes a profile works with (safes = [...], docs/custody.md), read
// from the chain: the dashboard's accounts list them beside the
// keystore's, and `allot safe list` prints them. The list is read from
// the profile's file at each use, as the pins are, so that a Safe added
// by `allot safe add` in another terminal shows on the next refresh.

// SafeAccount is a Safe the profile lists, as the chain holds it now.
type SafeAccount struct {
	Address common.Address
	// Info is the Safe as read; with Err set, what was read before the
	// read stopped (a refused Safe's singleton and its code hash).
	Info safe.Info
	// Err is why it is no account: a contract safe.Read refuses (Refused
	// says so), or a node that could not answer.
	Err error
}

// Refused says the Safe failed a check (its code, its singleton or an
// answer no Safe gives): it is not a Safe allot works with, whatever the
// node says next time. A node's failure to answer is not a refusal.
func (a SafeAccount) Refused() bool {
	return errors.Is(a.Err, safe.ErrNotSafe) || errors.Is(a.Err, safe.ErrBadAnswer)
}

// ErrNoSafesFile: the session has no configuration file to list Safes in
// (the embedded sandbox's profile is its own).
var ErrNoSafesFile = errors.New("no configuration file to list Safes in")

// ProfileSafes are the Safes the profile lists: in its file now when it
// has one, else as opened.
func (s *Session) ProfileSafes() ([]common.Address, error) {
	if !s.CanPin() {
		return s.Profile.SafeAddresses(), nil
	}
	p, err := s.profileOnDisk()
	if err != nil {
		return nil, fmt.Errorf("the profile's Safes: %w", err)
	}
	return p.SafeAddresses(), nil
}

// ListsSafe tells whether the profile lists the Safe addr as its file
// says now: another allot may have added or removed it since this one
// opened the profile.
func (s *Session) ListsSafe(addr common.Address) (bool, error) {
	addrs, err := s.ProfileSafes()
	if err != nil {
		return false, err
	}
	return slices.Contains(addrs, addr), nil
}

// Safes are the Safes the peeked profile lists: none on the embedded
// sandbox.
func (p Peek) Safes() []common.Address { return p.profile.SafeAddresses() }

// SafeNode is the profile's node as a Safe is read from it, or why there
// is none.
func (s *Session) SafeNode() (safe.Node, error) {
	if s.Chain == nil {
		return nil, fmt.Errorf("profile %q has no rpc_url to read its Safes from", s.Name)
	}
	node, ok := s.Chain.(safe.Node)
	if !ok {
		return nil, errors.New("the profile's node cannot read storage, where a Safe keeps its singleton")
	}
	return node, nil
}

// safeReads is how many Safes are read at once: a few calls each, to a
// node that may be a rate-limited public one.
const safeReads = 4

// ReadSafes reads every Safe the profile lists from the chain, in the
// profile's order; each one's failure is its own (SafeAccount.Err). The
// error is for the list itself: the file or the node.
func (s *Session) ReadSafes(ctx context.Context) ([]SafeAccount, error) {
	addrs, err := s.ProfileSafes()
	if err != nil || len(addrs) == 0 {
		return nil, err
	}
	node, err := s.SafeNode()
	if err != nil {
		return nil, err
	}
	out := make([]SafeAccount, len(addrs))
	slots := make(chan struct{}, safeReads)
	var wg sync.WaitGroup
	for i, addr := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			info, err := safe.Read(ctx, node, addr)
			out[i] = SafeAccount{Address: addr, Info: info, Err: err}
		}()
	}
	wg.Wait()
	return out, nil
}

// ListSafe adds addr to the Safes of the profile's file (remove: takes it
// out). The caller reads the Safe first: a profile lists only what
// safe.Read accepts when it is added.
func (s *Session) ListSafe(addr common.Address, remove bool) error {
	if err := s.SafesEditable(); err != nil {
		return err
	}
	return config.EditSafesFile(s.ConfigPath, s.Name, addr, remove)
}

// SafesEditable says why ListSafe cannot edit the profile's Safes, if it
// cannot: said before a Safe is read for nothing.
func (s *Session) SafesEditable() error {
	if !s.CanPin() {
		return fmt.Errorf("%w: the embedded sandbox's profile is its own; list Safes in a profile of a configuration file", ErrNoSafesFile)
	}
	return nil
}

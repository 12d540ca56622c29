package session

import (
	"context"

	"allot/wallet"
)

// VerifyBasis is what verifying a proof reads besides the proof and the
// chain: the contracts that may hold its root (the tokens' contract lists,
// the pinned vesters first) and the pins that say which holder is
// trusted, both read once. The Allocation screen verifies the allocation
// on show again on every block with the basis it read at the lookup or
// on the lists' rhythm, so that a block costs no contract list and no
// read of the profile's file; a signing review reads the pins anew
// (core/sign) whatever a basis says.
type VerifyBasis struct {
	// Options are VerifyOptions, with every listed vester a candidate.
	Options wallet.VerifyOptions
	pins    wallet.Pins
	pinsErr error
	source  string
}

// VerifyBasis reads the basis of a verification now. Where no root can be
// checked, it reads no pins either: nothing would hold the root to trust.
func (s *Session) VerifyBasis(ctx context.Context) VerifyBasis {
	if why := s.unverifiable(); why != nil {
		return VerifyBasis{Options: wallet.VerifyOptions{Unchecked: why}}
	}
	pins, err := s.SigningPins(ctx)
	b := VerifyBasis{pins: pins, pinsErr: err, source: s.PinsSource()}
	if err != nil {
		b.Options.Unchecked = err
		return b
	}
	candidates, err := s.candidatesOf(ctx, pins, true)
	if err != nil {
		b.Options.Unchecked = err
		return b
	}
	b.Options = wallet.VerifyOptions{Chain: s.Chain, Candidates: candidates}
	return b
}

// Trusts are VesterTrusts of v under the pins the basis read.
func (b VerifyBasis) Trusts(v *wallet.Verification) []wallet.VesterTrust {
	holders := holdersOf(v)
	if len(holders) == 0 {
		return nil
	}
	return vesterTrusts(holders, b.pins, b.pinsErr, b.source)
}

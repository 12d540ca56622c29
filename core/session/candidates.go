package session

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/config"
	"allot/wallet"
	"allot/wallet/history"
)

// maxRoots bounds the roots read from one vester: a hostile contract may
// answer a root at every index.
const maxRoots = 16

// Candidate is a contract the token's contract list names that could be
// the one to pin: a vester that holds a root the contract to pin holds,
// or a staking contract that stakes the same token.
type Candidate struct {
	Address common.Address
	Name    string
	// Pinned: the profile pins it now.
	Pinned bool
	// CodeHash is its code's hash; CodeErr why it could not be read.
	// SamePinnedCode: a pinned contract has that code.
	CodeHash       common.Hash
	CodeErr        error
	SamePinnedCode bool
	Proxy          wallet.Proxy
	// Deployed is its first block with code, when DeployedKnown.
	Deployed      uint64
	DeployedKnown bool
}

// String says the candidate in one line.
func (c Candidate) String() string {
	var b strings.Builder
	b.WriteString(c.Address.Hex())
	if c.Pinned {
		b.WriteString(" PINNED")
	}
	switch {
	case c.CodeErr != nil:
		b.WriteString(" · code unread")
	default:
		fmt.Fprintf(&b, " · code %s", abbrev(c.CodeHash))
		if c.SamePinnedCode {
			b.WriteString(" (a pinned contract's)")
		}
	}
	if c.Proxy.Kind != "" || c.Proxy.Delegates {
		b.WriteString(" · " + c.Proxy.String())
	}
	if c.DeployedKnown {
		fmt.Fprintf(&b, " · deployed at block %d", c.Deployed)
	} else {
		b.WriteString(" · deployed: unknown")
	}
	return b.String() + " · deployer unknown"
}

// Brief says the candidate in a few words, for a small screen: its
// address shortened (12 of its 40 digits), pinned or not, and whether its
// code is a pinned contract's.
func (c Candidate) Brief() string {
	a := c.Address.Hex()
	out := a[:8] + "…" + a[36:]
	if c.Pinned {
		out += " PINNED"
	}
	if c.SamePinnedCode {
		out += ", a pinned contract's code"
	}
	if c.Proxy.Kind != "" {
		out += ", " + c.Proxy.Kind + " proxy"
	}
	return out
}

func abbrev(h common.Hash) string { s := h.Hex(); return s[:10] + "…" }

// candidates are the listed contracts of kind's list (other than addr)
// that hold a root addr holds (vesters) or stake the token addr stakes
// (staking), pinned ones first; none for other kinds.
func (s *Session) candidates(ctx context.Context, kind wallet.PinKind, addr common.Address, contracts []api.Contract, pins config.Pins) []Candidate {
	if s.Chain == nil {
		return nil
	}
	var same func(common.Address) bool
	switch kind {
	case wallet.PinVester:
		roots := s.roots(ctx, addr)
		same = func(c common.Address) bool {
			for r := range s.roots(ctx, c) {
				if roots[r] {
					return true
				}
			}
			return false
		}
	case wallet.PinStaking:
		token, err := wallet.StakingToken(ctx, s.Chain, addr)
		if err != nil {
			return nil
		}
		same = func(c common.Address) bool {
			t, err := wallet.StakingToken(ctx, s.Chain, c)
			return err == nil && t == token
		}
	default:
		return nil
	}
	var pinned, rest []Candidate
	seen := map[common.Address]bool{addr: true}
	for _, c := range examined(contracts, pins) {
		if !common.IsHexAddress(c.Address) || seen[common.HexToAddress(c.Address)] {
			continue
		}
		other := common.HexToAddress(c.Address)
		seen[other] = true
		if isStaking := strings.EqualFold(c.Type, "STAKING"); isStaking != (kind == wallet.PinStaking) || !same(other) {
			continue
		}
		cand := s.candidate(ctx, other, c.Name, pins)
		if cand.Pinned {
			pinned = append(pinned, cand)
		} else {
			rest = append(rest, cand)
		}
	}
	return append(pinned, rest...)
}

// maxExamined bounds the listed contracts compared with the one being
// pinned: each costs up to maxRoots reads and a search for its
// deployment block, and a hostile service may list thousands.
const maxExamined = 64

// examined are the listed contracts compared, at most maxExamined: the
// pinned ones first, so that a list padded with fakes cannot push the
// genuine contract out of the comparison (and out of the flag).
func examined(contracts []api.Contract, pins config.Pins) []api.Contract {
	ordered := slices.Clone(contracts)
	slices.SortStableFunc(ordered, func(a, b api.Contract) int {
		pa := common.IsHexAddress(a.Address) && pins.Holds(common.HexToAddress(a.Address))
		pb := common.IsHexAddress(b.Address) && pins.Holds(common.HexToAddress(b.Address))
		switch {
		case pa && !pb:
			return -1
		case pb && !pa:
			return 1
		}
		return 0
	})
	return ordered[:min(len(ordered), maxExamined)]
}

// candidate reads what the chain tells of one candidate.
func (s *Session) candidate(ctx context.Context, addr common.Address, name string, pins config.Pins) Candidate {
	c := Candidate{Address: addr, Name: name, Pinned: pins.Holds(addr)}
	c.CodeHash, c.Proxy, c.CodeErr = wallet.ReadPin(ctx, s.Chain, addr)
	if c.CodeHash != (common.Hash{}) {
		c.CodeErr = nil
		c.SamePinnedCode = pinnedCode(pins, c.CodeHash)
	}
	if node, err := s.historyNode(); err == nil {
		c.Deployed, c.DeployedKnown, _ = history.FirstBlock(ctx, node, addr, s.births())
	}
	return c
}

// pinnedCode reports whether a contract pins holds has code hash h.
func pinnedCode(pins config.Pins, h common.Hash) bool {
	for _, v := range pins.CodeHashes {
		if strings.EqualFold(v, h.Hex()) {
			return true
		}
	}
	return false
}

// roots are the roots vester holds, read from index 0 up to the first it
// does not have (at most maxRoots).
func (s *Session) roots(ctx context.Context, vester common.Address) map[common.Hash]bool {
	out := map[common.Hash]bool{}
	for i := uint32(0); i < maxRoots; i++ {
		r, err := wallet.MerkleRoot(ctx, s.Chain, vester, i)
		if err != nil {
			break
		}
		out[r] = true
	}
	return out
}

package wallet

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"allot/api"
	"allot/internal/sanitize"

	"github.com/ethereum/go-ethereum/common"
)

// This file reads the service's results (package api) into this package's
// types.

// ProofFromAPI reads the merkle-proof operation's result. The result, as
// JSON, is kept as the proof's Source.
func ProofFromAPI(p *api.MerkleProof) (*Proof, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: no result", ErrProofFormat)
	}
	data, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrProofFormat, err)
	}
	return DecodeProof(data)
}

// ErrNotEVM: a claim holds an instruction that is not an EVM call (another
// chain's); allot shows it and signs nothing of the claim (D7).
var ErrNotEVM = errors.New("not an EVM call")

// ForeignInstructionError is a claim instruction allot cannot sign.
type ForeignInstructionError struct {
	Group, Index int
	// Raw is the instruction as the service sent it, sanitized and cut
	// short for display.
	Raw string
}

func (e *ForeignInstructionError) Error() string {
	return fmt.Sprintf("claim transaction %d, instruction %d is not an EVM call and cannot be signed here: %s", e.Group+1, e.Index+1, e.Raw)
}

// Unwrap makes errors.Is(err, ErrNotEVM) work.
func (e *ForeignInstructionError) Unwrap() error { return ErrNotEVM }

// ClaimCalls reads the instructions of a claim (D7), in order. One
// instruction that is not an EVM call refuses the whole claim with a
// *ForeignInstructionError: signing part of a claim is never what the user
// meant.
func ClaimCalls(res *api.ClaimResult) ([]Call, error) {
	if res == nil {
		return nil, errors.New("claim: no result")
	}
	var calls []Call
	for g, group := range res.Parameters {
		for i, ins := range group.Instructions {
			evm, ok := ins.EVM()
			if !ok {
				return nil, &ForeignInstructionError{Group: g, Index: i, Raw: sanitize.Truncate(string(ins.Raw), 200)}
			}
			c, err := ParseInstruction(evm.ChainID, evm.From, evm.To, evm.Data, evm.Value)
			if err != nil {
				return nil, fmt.Errorf("claim transaction %d, instruction %d: %w", g+1, i+1, err)
			}
			calls = append(calls, c)
		}
	}
	if len(calls) == 0 {
		return nil, errors.New("claim: the service gave no instructions")
	}
	return calls, nil
}

// StakeCall reads stake parameters (D11) as a call on the profile's chain.
func StakeCall(p *api.StakeParameters) (Call, error) {
	if p == nil {
		return Call{}, errors.New("stake: no parameters")
	}
	return ParseStake(p.From, p.To, p.Data, p.PlatformFee.String())
}

// KnownContracts labels the addresses of the service's contract list for
// DecodeOptions.Known, "NAME (TYPE)". Entries without a valid address are
// left out. Add the tokens the contracts use (StakePlan.Token) as well.
func KnownContracts(contracts []api.Contract) map[common.Address]string {
	out := make(map[common.Address]string, len(contracts))
	for _, c := range contracts {
		if !common.IsHexAddress(c.Address) {
			continue
		}
		label := sanitize.Truncate(c.Name, 60)
		if c.Type != "" {
			label += " (" + sanitize.Truncate(c.Type, 30) + ")"
		}
		out[common.HexToAddress(c.Address)] = label
	}
	return out
}

// VesterCandidates lists the contracts of a token that may be the vester of
// one of its distributions, for FindVester: every contract with an address
// except the staking pools', VESTING and AIRDROP first. The service's list
// only proposes; the chain decides, by the root a contract holds.
func VesterCandidates(contracts []api.Contract) []common.Address {
	var first, rest []common.Address
	for _, c := range contracts {
		if !common.IsHexAddress(c.Address) || strings.EqualFold(c.Type, "STAKING") {
			continue
		}
		addr := common.HexToAddress(c.Address)
		if strings.EqualFold(c.Type, "VESTING") || strings.EqualFold(c.Type, "AIRDROP") {
			first = append(first, addr)
		} else {
			rest = append(rest, addr)
		}
	}
	return append(first, rest...)
}

package sandbox

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// DefaultChainID is the chain id without a Chain: the one local development
// chains use.
const DefaultChainID = 31337

// Chain is the seam between the sandbox and a chain that runs its world.
// Without one (Options.Chain nil) the sandbox shows synthetic addresses and
// the seed balances, builds instructions for DefaultChainID, and computes
// unlocks at Options.Clock's time.
//
// A chain integration deploys the World (Seed) on its chain, implements
// Chain over it, and passes both to New. The sandbox then reads the chain's
// staking contracts' Staked events itself before every answer that
// depends on them, so that a stake mined in the latest block is in the
// stake lists and pool totals; and it reads a vester's schedules(id) and
// token balance for every claim it answers, so that a claim mined there is
// no longer claimable (D18: the production vester emits no event of its
// own on a claim).
type Chain interface {
	// ChainID is the id claim and stake instructions are built for.
	ChainID() uint64
	// Address returns where the seed record with this id lives on the
	// chain: a token, a contract, or a staking pool that has a contract of
	// its own (a pool without one stakes into its contract's address).
	// false keeps the synthetic address.
	Address(id string) (common.Address, bool)
	// BalanceOf returns owner's balance of the ERC-20 at token, in base
	// units. Contract balances are read with it when both the contract and
	// its token are on the chain.
	BalanceOf(ctx context.Context, token, owner common.Address) (*big.Int, error)
	// Now is the time unlocks are computed at: a transaction built now is
	// mined at this time or later.
	Now(ctx context.Context) (time.Time, error)
	// FirstBlock is the first block of the world's deployment: events
	// before it are not the sandbox's.
	FirstBlock() uint64
	// HeaderByNumber returns the canonical header of block number, or the
	// newest block's for nil, as ethclient.Client does.
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	// FilterLogs returns the logs q matches, as ethclient.Client does
	// (eth_getLogs).
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	// CallContract runs a call on the newest block (number nil) or on
	// block number, as ethclient.Client does (eth_call): the sandbox reads
	// its vesters' schedules(id) with it.
	CallContract(ctx context.Context, call ethereum.CallMsg, number *big.Int) ([]byte, error)
}

func (s *Server) chainID() uint64 {
	if s.chain == nil {
		return DefaultChainID
	}
	return s.chain.ChainID()
}

// address returns where the record with this id lives: on the chain when
// the chain has it, else at its synthetic address.
func (s *Server) address(id string, synthetic common.Address) common.Address {
	if s.chain != nil {
		if addr, ok := s.chain.Address(id); ok {
			return addr
		}
	}
	return synthetic
}

// poolAddress is where a pool's stakes go.
func (s *Server) poolAddress(p *Pool) common.Address {
	c, _ := s.world.Contract(p.ContractID)
	return s.address(p.ID, s.address(c.ID, c.Address))
}

// vesterAddress is where a distribution's claims go.
func (s *Server) vesterAddress(d *Distribution) common.Address {
	c, _ := s.world.Contract(d.ContractID)
	return s.address(c.ID, c.Address)
}

// balance returns the token balance of a contract: read from the chain when
// both are on it, else the seed balance.
func (s *Server) balance(ctx context.Context, c *Contract) (*big.Int, error) {
	if s.chain == nil {
		return c.Balance, nil
	}
	addr, onChain := s.chain.Address(c.ID)
	token, _ := s.world.Token(c.TokenID)
	tokenAddr, tokenOnChain := s.chain.Address(token.ID)
	if !onChain || !tokenOnChain {
		return c.Balance, nil
	}
	b, err := s.chain.BalanceOf(ctx, tokenAddr, addr)
	if err != nil {
		return nil, fmt.Errorf("balance of contract %s: %w", c.ID, err)
	}
	return b, nil
}

// unlockTime is the time unlocks are computed at.
func (s *Server) unlockTime(ctx context.Context) (time.Time, error) {
	if s.chain == nil {
		return s.clock(), nil
	}
	t, err := s.chain.Now(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("chain time: %w", err)
	}
	return t, nil
}

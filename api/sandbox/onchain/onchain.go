// Package onchain runs the sandbox service with its world deployed on an
// EVM, in process or an external node (anvil, a devnet): our tokens, one
// vester per distribution with its merkle roots, and staking contracts, so
// that a claim or a stake built by the sandbox is a real transaction that
// moves real (test) tokens, and a transaction's status is the chain's
// answer.
package onchain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/api/sandbox"
	"allot/api/sandbox/chain"
)

// MineInterval is how often the chain mines a block, so that confirmations
// count up as on a real chain.
const MineInterval = time.Second

// Options configure Start.
type Options struct {
	// Sandbox configures the service; its Chain and World are set by Start.
	Sandbox sandbox.Options
	// MineInterval defaults to MineInterval; a negative one mines only on
	// Commit, for tests. An external node mines by itself.
	MineInterval time.Duration
	// Chain is where the world is deployed; nil: a new in-process chain.
	// An external one (chain.Dial) must have a funded deployer. Close
	// closes it.
	Chain *chain.Chain
	// Background makes Start return as soon as the service can take
	// requests: the world's first part seeded (sandbox.SeedFirst) and the
	// chain up. The rest of the seed and the world's deployment go on in
	// the background, and the service's operations wait for them (see
	// Seeded); Close stops them. Without it Start returns once all is
	// done, as a sandbox that prints its deployment before it listens
	// needs.
	Background bool
}

// Sandbox is the sandbox service and the chain its world runs on.
type Sandbox struct {
	Server *sandbox.Server
	Chain  *chain.Chain

	world      *sandbox.World
	addrs      map[string]common.Address // seed record id -> deployed address; written by deploy, read after seeded
	firstBlock uint64                    // the head before the world was deployed

	// The background work: the seed's rest and the deployment. seeded is
	// closed when it ended, with seedErr; stop cancels it.
	work    sync.WaitGroup
	stop    context.CancelFunc
	seeded  chan struct{}
	seedErr error

	closeOnce sync.Once
	closeErr  error
}

// Start seeds the world, deploys it on a new chain, and starts the service
// and the mining loop; with Options.Background it returns before the seed
// and the deployment are done. ctx bounds the start, not the background
// work, which Close stops.
func Start(ctx context.Context, opts Options) (*Sandbox, error) {
	now := time.Now
	if opts.Sandbox.Clock != nil {
		now = opts.Sandbox.Clock
	}
	started, err := startChain(opts.Chain)
	if err != nil {
		return nil, fmt.Errorf("sandbox chain: %w", err)
	}
	world, err := sandbox.SeedFirst(now(), opts.Sandbox.WhaleStakes)
	if err != nil {
		if c, _ := started(); c != nil && opts.Chain == nil {
			c.Close()
		}
		return nil, fmt.Errorf("sandbox chain: %w", err)
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &Sandbox{world: world, addrs: map[string]common.Address{}, stop: stop, seeded: make(chan struct{})}
	// The seed's rest runs beside the chain's start, which began before
	// the seed: the two largest costs of a start need nothing of each
	// other. The deployment (finish) waits for both.
	s.work.Go(func() { world.Finish(bg) })
	c, err := started()
	if err != nil {
		stop()
		s.work.Wait()
		return nil, fmt.Errorf("sandbox chain: %w", err)
	}
	s.Chain = c
	so := opts.Sandbox
	so.Chain, so.World, so.Ready = chainSeam{s}, world, s.Seeded
	if s.Server, err = sandbox.New(so); err != nil {
		s.Close()
		return nil, err
	}
	interval := opts.MineInterval
	if interval == 0 {
		interval = MineInterval
	}
	s.work.Go(func() {
		defer close(s.seeded)
		s.seedErr = s.finish(bg, interval)
	})
	if !opts.Background {
		if err := s.Seeded(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// startChain returns c, or starts a new in-process chain funding the demo
// wallets in the background (its start is the largest cost of Start, and
// needs nothing the seed makes): the function returned waits for it.
func startChain(c *chain.Chain) (func() (*chain.Chain, error), error) {
	if c != nil {
		return func() (*chain.Chain, error) { return c, nil }, nil
	}
	funds, err := sandbox.NativeFunds()
	if err != nil {
		return nil, err
	}
	type result struct {
		c   *chain.Chain
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := chain.New(chain.Options{Balances: funds})
		done <- result{c, err}
	}()
	return func() (*chain.Chain, error) {
		r := <-done
		return r.c, r.err
	}, nil
}

// finish waits for the seed's rest, deploys the world and starts mining.
func (s *Sandbox) finish(ctx context.Context, interval time.Duration) error {
	if err := s.world.Wait(ctx); err != nil {
		return fmt.Errorf("sandbox chain: %w", err)
	}
	if err := s.deploy(ctx); err != nil {
		return fmt.Errorf("sandbox chain: deploy: %w", err)
	}
	if interval > 0 && !s.Chain.External() {
		if err := s.Chain.StartMining(interval); err != nil {
			return fmt.Errorf("sandbox chain: %w", err)
		}
	}
	return nil
}

// Seeded waits until the world is seeded and deployed and returns nil, or
// why it could not be, or ctx's error if ctx ends first.
func (s *Sandbox) Seeded(ctx context.Context) error {
	select {
	case <-s.seeded:
		return s.seedErr
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// deploy puts the world on the chain in one block (an external node may
// take several): a token per seed token, a vester per distribution (roots
// in order, funded with all it owes), a staking contract per STAKING
// contract holding its seeded balance, and the demo wallets' tokens and
// native coin (topped up to what the world gives them).
func (s *Sandbox) deploy(ctx context.Context) error {
	w := s.world
	head, err := s.Chain.Client().BlockNumber(ctx)
	if err != nil {
		return fmt.Errorf("head block: %w", err)
	}
	s.firstBlock = head
	if s.Chain.External() {
		funds, err := s.Chain.DeployerBalance(ctx)
		if err != nil {
			return err
		}
		if funds.Sign() == 0 {
			return fmt.Errorf("the deployer %s holds no native coin on chain %d: fund it, or use an account the node funds", s.Chain.Deployer().Hex(), s.Chain.ChainID())
		}
	}
	topUps := map[common.Address]*big.Int{}
	for _, wallet := range w.Wallets {
		have, err := s.Chain.Client().BalanceAt(ctx, wallet.Address, nil)
		if err != nil {
			return fmt.Errorf("balance of demo wallet %s: %w", wallet.Address.Hex(), err)
		}
		if have.Cmp(wallet.Native) < 0 {
			topUps[wallet.Address] = new(big.Int).Sub(wallet.Native, have)
		}
	}
	return s.Chain.Transact(ctx, func(b *chain.Batch) {
		deployer := s.Chain.Deployer()
		for _, t := range w.Tokens {
			s.addrs[t.ID] = b.DeployToken(t.Name, t.Symbol)
		}
		for _, c := range w.Contracts {
			token := s.addrs[c.TokenID]
			switch {
			case c.Distribution != nil:
				vester := b.DeployVester(token, c.Distribution.ClaimFee)
				s.addrs[c.ID] = vester
				owed := new(big.Int)
				for _, root := range c.Distribution.Roots {
					b.AddRoot(vester, root.Hash)
					for _, a := range root.Allocations {
						owed.Add(owed, a.Args.Allocation.TotalAllocation)
					}
				}
				if owed.Sign() > 0 {
					b.Mint(token, deployer, owed)
					b.Fund(vester, owed)
				}
			case c.Type == sandbox.ContractStaking:
				staking := b.DeployStaking(token, c.PlatformFee)
				s.addrs[c.ID] = staking
				// The seeded stakes are records of the past: the contract
				// holds their tokens, so the chain agrees with the pools.
				if c.Balance != nil && c.Balance.Sign() > 0 {
					b.Mint(token, staking, c.Balance)
				}
			}
		}
		for _, wallet := range w.Wallets {
			for tokenID, amount := range wallet.Holdings {
				if amount.Sign() > 0 {
					b.Mint(s.addrs[tokenID], wallet.Address, amount)
				}
			}
			if amount := topUps[wallet.Address]; amount != nil {
				b.SendNative(wallet.Address, amount)
			}
		}
	})
}

// Deployed is one contract of the world on the chain.
type Deployed struct {
	Kind    string // "token", sandbox.ContractVesting, sandbox.ContractAirdrop, sandbox.ContractStaking
	Name    string
	Address common.Address
}

// Deployed lists the world's contracts on the chain: the tokens, then the
// contracts in list order. Call it once Seeded has returned nil.
func (s *Sandbox) Deployed() []Deployed {
	var out []Deployed
	for _, t := range s.world.Tokens {
		out = append(out, Deployed{Kind: "token", Name: t.Name + " (" + t.Symbol + ")", Address: s.addrs[t.ID]})
	}
	for _, c := range s.world.Contracts {
		if addr, ok := s.addrs[c.ID]; ok {
			out = append(out, Deployed{Kind: c.Type, Name: c.Name, Address: addr})
		}
	}
	return out
}

// Close stops the background work, the service, the mining loop and the
// chain, and returns once they have stopped. Calling it again returns the
// first call's result.
func (s *Sandbox) Close() error {
	s.closeOnce.Do(func() {
		s.stop()
		s.work.Wait()
		var errs []error
		if s.Server != nil {
			errs = append(errs, s.Server.Close())
		}
		s.closeErr = errors.Join(append(errs, s.Chain.Close())...)
	})
	return s.closeErr
}

// chainSeam is the sandbox.Chain the service reads the chain through.
type chainSeam struct{ s *Sandbox }

func (c chainSeam) ChainID() uint64 { return c.s.Chain.ChainID() }

func (c chainSeam) Address(id string) (common.Address, bool) {
	addr, ok := c.s.addrs[id]
	return addr, ok
}

func (c chainSeam) BalanceOf(ctx context.Context, token, owner common.Address) (*big.Int, error) {
	return c.s.Chain.BalanceOf(ctx, token, owner)
}

func (c chainSeam) Now(ctx context.Context) (time.Time, error) { return c.s.Chain.Now(ctx) }

func (c chainSeam) FirstBlock() uint64 { return c.s.firstBlock }

func (c chainSeam) HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error) {
	return c.s.Chain.Client().HeaderByNumber(ctx, number)
}

func (c chainSeam) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	return c.s.Chain.Client().FilterLogs(ctx, q)
}

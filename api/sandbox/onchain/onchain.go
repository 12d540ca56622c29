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
	// Hold, with Background, is how long the new chain's start and the
	// seed's rest wait before they begin, unless something needs them
	// sooner (an operation that waits for them, Begin): the first answers,
	// the contracts and pools listings, need neither, and on a small
	// machine they and their drawing are quicker with the cores to
	// themselves. Zero: they begin at once.
	Hold time.Duration

	// holdDeploy, when set, holds the deployment until it is closed: tests
	// see the sandbox as it answers before the deployment.
	holdDeploy <-chan struct{}
}

// Sandbox is the sandbox service and the chain its world runs on.
type Sandbox struct {
	Server *sandbox.Server
	// Chain is the chain the world runs on. A new one (Options.Chain nil)
	// started with Options.Background is set once Seeded has returned nil.
	Chain *chain.Chain

	world   *sandbox.World
	chainID uint64
	// addrs maps seed record ids to deployed addresses. On a new chain
	// they are planned before it starts (chain.Plan) and only read after;
	// on an external one deploy writes them, read once seeded.
	addrs      map[string]common.Address
	planned    bool
	firstBlock uint64 // the head before the world was deployed

	// The background work: the chain's start, the seed's rest and the
	// deployment. seeded is closed when it ended, with seedErr; stop
	// cancels it.
	work      sync.WaitGroup
	stop      context.CancelFunc
	seeded    chan struct{}
	seedErr   error
	begin     chan struct{} // closed by Begin
	beginOnce sync.Once

	closeOnce sync.Once
	closeErr  error
}

// Start seeds the world, deploys it on a new chain, and starts the service
// and the mining loop; with Options.Background it returns before the chain,
// the seed and the deployment are done. ctx bounds the start, not the
// background work, which Close stops.
func Start(ctx context.Context, opts Options) (*Sandbox, error) {
	now := time.Now
	if opts.Sandbox.Clock != nil {
		now = opts.Sandbox.Clock
	}
	s := &Sandbox{addrs: map[string]common.Address{}, seeded: make(chan struct{}), begin: make(chan struct{})}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	hold := func() error { return s.hold(bg, opts.Hold) }
	if !opts.Background {
		s.Begin()
	}
	started, err := startChain(opts.Chain, hold)
	if err != nil {
		stop()
		return nil, fmt.Errorf("sandbox chain: %w", err)
	}
	// fail stops what began, the new chain's start included.
	fail := func(err error) (*Sandbox, error) {
		stop()
		s.work.Wait()
		if c, _ := started(); c != nil && opts.Chain == nil {
			c.Close()
		}
		return nil, err
	}
	if s.world, err = sandbox.SeedFirst(now(), opts.Sandbox.WhaleStakes); err != nil {
		return fail(fmt.Errorf("sandbox chain: %w", err))
	}
	so := opts.Sandbox
	so.Chain, so.World, so.Ready = chainSeam{s}, s.world, s.Need
	if opts.Chain == nil {
		// A new chain deploys at addresses known before it starts, and
		// holds nothing of the world but what the seed says until the
		// deployment is done: the service may list the contracts and
		// pools at once, from the seed, as the chain will hold them. The
		// plan reads the roots' hashes, which Finish writes: it goes
		// first.
		if err := chain.Plan(func(b *chain.Batch) { s.queue(b, s.addrs, nil) }); err != nil {
			return fail(fmt.Errorf("sandbox chain: plan the deployment: %w", err))
		}
		s.planned, s.chainID = true, chain.DefaultChainID
		so.ReadyNow = s.seededNow
	} else {
		s.Chain, s.chainID = opts.Chain, opts.Chain.ChainID()
	}
	// The seed's rest runs beside the chain's start: the two largest
	// costs of a start need nothing of each other. The deployment
	// (finish) waits for both. A Finish stopped in its hold still runs,
	// to fail at once and say so to what waits for the world.
	s.work.Go(func() {
		hold()
		s.world.Finish(bg)
	})
	if s.Server, err = sandbox.New(so); err != nil {
		return fail(err)
	}
	interval := opts.MineInterval
	if interval == 0 {
		interval = MineInterval
	}
	s.work.Go(func() {
		defer close(s.seeded)
		s.seedErr = s.finish(bg, started, interval, opts.holdDeploy)
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
// wallets in the background, once hold has returned (its start is the
// largest cost of Start, and needs nothing the seed makes): the function
// returned waits for it.
func startChain(c *chain.Chain, hold func() error) (func() (*chain.Chain, error), error) {
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
		if err := hold(); err != nil {
			done <- result{nil, err}
			return
		}
		c, err := chain.New(chain.Options{Balances: funds})
		done <- result{c, err}
	}()
	return func() (*chain.Chain, error) {
		r := <-done
		return r.c, r.err
	}, nil
}

// finish waits for the chain and the seed's rest, deploys the world and
// starts mining.
func (s *Sandbox) finish(ctx context.Context, started func() (*chain.Chain, error), interval time.Duration, hold <-chan struct{}) error {
	c, err := started()
	if err != nil {
		return fmt.Errorf("sandbox chain: %w", err)
	}
	if s.planned {
		s.Chain = c
	}
	if err := s.world.Wait(ctx); err != nil {
		return fmt.Errorf("sandbox chain: %w", err)
	}
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return fmt.Errorf("sandbox chain: %w", context.Cause(ctx))
		}
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

// Begin starts the chain's start and the seed's rest now if Options.Hold
// holds them still; calling it again does nothing.
func (s *Sandbox) Begin() { s.beginOnce.Do(func() { close(s.begin) }) }

// hold returns after d, or when Begin is called, or with ctx's error when
// ctx ends, whichever comes first.
func (s *Sandbox) hold(ctx context.Context, d time.Duration) error {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-s.begin:
		case <-ctx.Done():
		}
	}
	return context.Cause(ctx)
}

// Need is Seeded for what cannot be answered without the world on the
// chain: it begins the background work at once (Begin).
func (s *Sandbox) Need(ctx context.Context) error {
	s.Begin()
	return s.Seeded(ctx)
}

// seededNow tells, without waiting, whether Seeded would return at once.
func (s *Sandbox) seededNow() bool {
	select {
	case <-s.seeded:
		return true
	default:
		return false
	}
}

// Seeded waits until the world is seeded and deployed and returns nil, or
// why it could not be, or ctx's error if ctx ends first. It does not
// hurry a Hold: Need does.
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
// in order, funded with what the seed says, with its post-claim handler),
// a staking contract per STAKING contract holding its seeded balance, the
// demo wallets' tokens and native coin (topped up to what the world gives
// them), and last the demo allocations' lives (claims, cancels, revokes,
// transfers) at the chain's time.
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
	now, err := s.Chain.Now(ctx)
	if err != nil {
		return fmt.Errorf("chain time: %w", err)
	}
	addrs := s.addrs
	if s.planned {
		addrs = map[string]common.Address{} // s.addrs is being read
	}
	err = s.Chain.Transact(ctx, func(b *chain.Batch) {
		s.queue(b, addrs, topUps)
		queueLives(b, w, addrs, now)
	})
	if err != nil || !s.planned {
		return err
	}
	for id, addr := range addrs {
		if planned, ok := s.addrs[id]; !ok || planned != addr {
			return fmt.Errorf("%s deployed at %s, planned at %s", id, addr.Hex(), planned.Hex())
		}
	}
	return nil
}

// queue queues the world's deployment on b, noting where each seed record
// is deployed in addrs, and sends the demo wallets the native coin in
// topUps.
func (s *Sandbox) queue(b *chain.Batch, addrs map[string]common.Address, topUps map[common.Address]*big.Int) {
	w := s.world
	for _, t := range w.Tokens {
		addrs[t.ID] = b.DeployToken(t.Name, t.Symbol)
	}
	for _, c := range w.Contracts {
		token := addrs[c.TokenID]
		switch {
		case c.Distribution != nil:
			d := c.Distribution
			vester := b.DeployVester(token, d.ClaimFee)
			addrs[c.ID] = vester
			if d.Handler != nil {
				addrs[d.Handler.ID] = b.DeployPostClaimVault(vester, token)
				b.DisallowDirectClaim(vester)
			}
			for _, root := range d.Roots {
				b.AddRoot(vester, root.Hash)
			}
			if d.Funded.Sign() > 0 {
				b.Mint(token, b.Deployer(), d.Funded)
				b.Fund(vester, d.Funded)
			}
		case c.Type == sandbox.ContractStaking:
			staking := b.DeployStaking(token, c.PlatformFee)
			addrs[c.ID] = staking
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
				b.Mint(addrs[tokenID], wallet.Address, amount)
			}
		}
		if amount := topUps[wallet.Address]; amount != nil {
			b.SendNative(wallet.Address, amount)
		}
	}
}

// queueLives queues what the seed does to its demo allocations once their
// roots are committed (sandbox.Life), as the chain's time now allows: the
// seeded claim, sent by the deployer for the beneficiary (no more than has
// vested at now, on a chain behind the world's Start); a transfer and a
// revoke by the benefactor; a cancel unless the schedule has ended (the
// vester would refuse it). A transaction is mined at now or later, and
// vesting only grows, so what is claimable at now stays so.
func queueLives(b *chain.Batch, w *sandbox.World, addrs map[string]common.Address, now time.Time) {
	for _, a := range w.FixtureAllocations {
		life := a.Life
		if life == nil {
			continue
		}
		d := a.Distribution()
		vester := addrs[d.ContractID]
		proof, err := a.Proof()
		if err != nil {
			b.Fail(err)
			return
		}
		leaf := chain.Leaf{RootIndex: a.RootIndex, DecodableArgs: a.DecodableArgs, Proof: proof}
		if life.Claimed != nil {
			amount := new(big.Int).Set(life.Claimed)
			if vested := a.Args.Unlocked(now); amount.Cmp(vested) > 0 {
				amount = vested
			}
			if amount.Sign() > 0 {
				b.Withdraw(vester, leaf, amount, d.ClaimFee)
			}
		}
		if life.TransferTo != (common.Address{}) {
			b.TransferBeneficiary(vester, leaf, life.TransferTo)
		}
		if life.Cancel && now.Add(cancelMargin).Before(sandbox.ScheduleEnd(a)) {
			b.Cancel(vester, leaf)
		}
		if life.Revoke {
			b.Revoke(vester, leaf)
		}
	}
}

// cancelMargin is how long before a schedule's end a cancel is still
// queued: the batch is mined a few blocks after now at most.
const cancelMargin = time.Hour

// KindPostClaimHandler is the Deployed.Kind of a vester's post-claim
// handler.
const KindPostClaimHandler = "post-claim handler"

// Deployed is one contract of the world on the chain.
type Deployed struct {
	Kind    string // "token", sandbox.ContractVesting, sandbox.ContractAirdrop, sandbox.ContractStaking, KindPostClaimHandler
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
		if d := c.Distribution; d != nil && d.Handler != nil {
			if addr, ok := s.addrs[d.Handler.ID]; ok {
				out = append(out, Deployed{Kind: KindPostClaimHandler, Name: d.Handler.Name, Address: addr})
			}
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
		if s.Chain != nil {
			errs = append(errs, s.Chain.Close())
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// chainSeam is the sandbox.Chain the service reads the chain through.
type chainSeam struct{ s *Sandbox }

func (c chainSeam) ChainID() uint64 { return c.s.chainID }

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

func (c chainSeam) CallContract(ctx context.Context, call ethereum.CallMsg, number *big.Int) ([]byte, error) {
	return c.s.Chain.Client().CallContract(ctx, call, number)
}

package sandbox

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

const day = 24 * time.Hour

// Seed data sizes.
const (
	// DemoWallets is how many demo wallets the sandbox has.
	DemoWallets = 4
	// WhaleStakes is how many stakes the "Whale pool" holds by default.
	WhaleStakes = 100_000
	// MaxWhaleStakes bounds the whale pool: its listing is one response
	// (D4) of about 200 bytes a stake, held in memory once rendered.
	MaxWhaleStakes = 2_000_000
	// syntheticStakers is how many other wallets hold stakes.
	syntheticStakers = 8192
)

// Seed generates the sandbox's world laid out around the UTC day of start.
// Ids and names are the same on every call; dates, and with them the merkle
// leaves of the schedules, move with the day, so that at any start the
// allocations are partly unlocked and the pools partly finished.
func Seed(start time.Time) (*World, error) {
	return SeedSized(start, WhaleStakes)
}

// SeedSized is Seed with a whale pool of whaleStakes stakes, 1 to
// MaxWhaleStakes, or WhaleStakes when 0: the knob for trying a client
// against a large pool. The other pools' stakes differ from Seed's when the
// size does (they draw from the same random sequence).
func SeedSized(start time.Time, whaleStakes int) (*World, error) {
	w, err := SeedFirst(start, whaleStakes)
	if err != nil {
		return nil, err
	}
	if err := w.Finish(context.Background()); err != nil {
		return nil, err
	}
	return w, nil
}

// SeedFirst seeds what a first screen shows: the tokens, their contracts
// with their balances, the pools with their stakes and totals, the
// allocations with their amounts and schedules, the portal, and the
// wallets. The rest, the allocations' leaves and merkle trees and the
// stakers' addresses, is Finish's: until it has run, only the fields this
// part seeds may be read. This part draws every random value the seed
// uses, in the same order, and Finish draws none, so seeding in two steps
// makes the same World as SeedSized, byte for byte.
func SeedFirst(start time.Time, whaleStakes int) (*World, error) {
	if whaleStakes == 0 {
		whaleStakes = WhaleStakes
	}
	if whaleStakes < 1 || whaleStakes > MaxWhaleStakes {
		return nil, fmt.Errorf("seed: the whale pool's size %d is not within 1 to %d", whaleStakes, MaxWhaleStakes)
	}
	w := &World{
		whaleStakes:  whaleStakes,
		Start:        start.UTC().Truncate(day),
		tokens:       map[string]*Token{},
		contracts:    map[string]*Contract{},
		pools:        map[string]*Pool{},
		allocations:  map[string]*Allocation{},
		adminWallets: map[string]*AdminWallet{},
		finished:     make(chan struct{}),
	}
	if err := w.seedWallets(); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	w.seedAdminWallets()
	w.seedTokens()
	w.seedDistributions()
	w.seedPools()
	w.seedPortal()
	w.index()
	return w, nil
}

// Finish seeds what SeedFirst left: every allocation's decodableArgs and
// leaf, the merkle trees and their roots, and the stakers' addresses. It
// runs once; a later call waits for the first and returns its result. An
// error, ctx's included, leaves the World unfinished for good.
func (w *World) Finish(ctx context.Context) error {
	w.finishOnce.Do(func() {
		defer close(w.finished)
		if err := w.seedLeaves(ctx); err != nil {
			w.finishErr = fmt.Errorf("seed: %w", err)
			return
		}
		w.seedStakers()
	})
	return w.Wait(ctx)
}

// Wait returns once Finish has run, with its error, or ctx's error if ctx
// ends first.
func (w *World) Wait(ctx context.Context) error {
	select {
	case <-w.finished:
		return w.finishErr
	case <-ctx.Done():
		return fmt.Errorf("seed: %w", context.Cause(ctx))
	}
}

// finishedNow tells, without waiting, whether Finish has run, and its
// error.
func (w *World) finishedNow() (bool, error) {
	select {
	case <-w.finished:
		return true, w.finishErr
	default:
		return false, nil
	}
}

// NativeFunds returns the native coin, in wei, each demo wallet is given
// (Wallet.Native), by address: what a chain integration may fund at its
// genesis while the world is still being seeded.
func NativeFunds() (map[common.Address]*big.Int, error) {
	var w World
	if err := w.seedWallets(); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	funds := map[common.Address]*big.Int{}
	for _, wallet := range w.Wallets {
		funds[wallet.Address] = wallet.Native
	}
	return funds, nil
}

func (w *World) seedWallets() error {
	for i := range DemoWallets {
		key, err := demoKey(i)
		if err != nil {
			return err
		}
		w.Wallets = append(w.Wallets, &Wallet{
			Index:      i,
			Address:    crypto.PubkeyToAddress(key.PublicKey),
			Key:        key,
			Passphrase: fmt.Sprintf("allot-demo-%d", i),
			Holdings:   map[string]*big.Int{},
			Native:     units(100, 0, 0),
		})
	}
	return nil
}

func (w *World) seedAdminWallets() {
	for _, name := range []string{"Treasury Safe", "Operations Hot Wallet"} {
		a := &AdminWallet{ID: seedID("admin-wallet", name), Name: name, Address: syntheticAddress("admin-wallet/" + name)}
		w.AdminWallets = append(w.AdminWallets, a)
		w.adminWallets[a.ID] = a
	}
}

func (w *World) seedTokens() {
	specs := []struct {
		name, symbol string
		supply       int64
		age          int // days before Start
		holding      int64
	}{
		{"Meridian", "MRD", 1_000_000_000, 800, 250_000},
		{"Harbor", "HBR", 250_000_000, 500, 50_000},
	}
	for _, s := range specs {
		t := &Token{
			ID:        seedID("token", s.symbol),
			Name:      s.name,
			Symbol:    s.symbol,
			Address:   syntheticAddress("token/" + s.symbol),
			Supply:    units(s.supply, 0, 0),
			CreatedAt: w.Start.Add(-time.Duration(s.age) * day),
		}
		w.Tokens = append(w.Tokens, t)
		w.tokens[t.ID] = t
		for _, wallet := range w.Wallets {
			wallet.Holdings[t.ID] = units(s.holding, 0, 0)
		}
	}
}

// addContract registers a contract of token.
func (w *World) addContract(token *Token, name, kind string, createdAt time.Time) *Contract {
	c := &Contract{
		ID:        seedID("contract", name),
		TokenID:   token.ID,
		Name:      name,
		Type:      kind,
		Address:   syntheticAddress("contract/" + name),
		Balance:   new(big.Int),
		CreatedAt: createdAt,
	}
	w.Contracts = append(w.Contracts, c)
	w.contracts[c.ID] = c
	return c
}

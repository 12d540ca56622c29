package sandbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// A distributionSpec describes one vester and its allocations.
type distributionSpec struct {
	token    int
	contract string // the vester's name; the distribution drops " Vesting"
	name     string
	kind     string // ContractVesting or ContractAirdrop
	claimFee *big.Int
	tge      int // days before Start the first unlock happens
	flags    [4]bool
	rounds   []roundSpec
	// fundedPPM, when not 0, funds the vester with this share
	// (millionths) of what it owes: an underfunded vester.
	fundedPPM int64
	// handler names the post-claim handler every claim goes through.
	handler string
}

// A roundSpec is one merkle root of a distribution.
type roundSpec struct {
	size      int
	age       int            // days before Start the root was added
	minTokens int64          // allocation size range, whole tokens
	maxTokens int64          //
	schedules []scheduleSpec // allocation i follows schedules[i%len]
	demo      []int          // demo wallets that own the round's first allocations
	// lives are the allocations after the demo ones: each belongs to a
	// demo wallet and has a Life, a state to demonstrate (D18).
	lives []lifeSpec
}

// A lifeSpec is a demo allocation with a life: its wallet, and besides
// what life says a claim of claimPPM millionths of what had vested at the
// world's Start (0 for none) and a transfer to another demo wallet
// (transferTo, -1 for none).
type lifeSpec struct {
	wallet     int
	claimPPM   int64
	transferTo int
	life       Life
}

// A scheduleSpec builds an unlock schedule from the distribution's first
// unlock (its TGE, token generation event).
type scheduleSpec struct {
	name  string
	build func(tge uint32) vesting.Schedule
}

const secondsPerDay = 24 * 60 * 60

// Days in seconds, as uint32 schedule times count.
func days(n int) uint32 { return uint32(n * secondsPerDay) }

// calendar returns a calendar schedule unlocking percents[i] millionths at
// tge+offsets[i].
func calendar(tge uint32, offsets []uint32, percents []int64) vesting.Schedule {
	s := vesting.Schedule{Kind: vesting.Calendar}
	for i, off := range offsets {
		s.UnlockTimestamps = append(s.UnlockTimestamps, tge+off)
		s.UnlockPercents = append(s.UnlockPercents, big.NewInt(percents[i]))
	}
	return s
}

// tgeThenMonthly: 10% at TGE, then 5% every 30 days for 18 months.
func tgeThenMonthly(tge uint32) vesting.Schedule {
	offsets, percents := []uint32{0}, []int64{100_000}
	for k := 1; k <= 18; k++ {
		offsets = append(offsets, days(30*k))
		percents = append(percents, 50_000)
	}
	return calendar(tge, offsets, percents)
}

// quarterly: 12.5% every 91 days from TGE on, eight times.
func quarterly(tge uint32) vesting.Schedule {
	var offsets []uint32
	var percents []int64
	for k := range 8 {
		offsets = append(offsets, days(91*k))
		percents = append(percents, 125_000)
	}
	return calendar(tge, offsets, percents)
}

// airdropHalves: half at the drop, half 90 days later.
func airdropHalves(tge uint32) vesting.Schedule {
	return calendar(tge, []uint32{0, days(90)}, []int64{500_000, 500_000})
}

// annualThirds: a third on each of the first three anniversaries.
func annualThirds(tge uint32) vesting.Schedule {
	return calendar(tge, []uint32{days(365), days(730), days(1095)}, []int64{333_334, 333_333, 333_333})
}

// atTGE is an interval piece unlocking percent at once, at TGE: one period
// of one second that ends then. Not a period of length 0, which the
// production vester divides by (docs/deployment.md D16).
func atTGE(tge uint32, percent uint32) vesting.Piece {
	return vesting.Piece{StartDate: tge - 1, PeriodLength: 1, NumberOfPeriods: 1, Percent: percent}
}

// tgeCliffMonthly: 15% at TGE, then 85% in 24 monthly steps from month 3.
func tgeCliffMonthly(tge uint32) vesting.Schedule {
	return vesting.Schedule{Kind: vesting.Interval, Pieces: []vesting.Piece{
		atTGE(tge, 150_000),
		{StartDate: tge + days(90), PeriodLength: days(30), NumberOfPeriods: 24, Percent: 850_000},
	}}
}

// dailyAfterCliff: everything in daily steps over 639 days after a 91-day
// cliff (two years in all).
func dailyAfterCliff(tge uint32) vesting.Schedule {
	return vesting.Schedule{Kind: vesting.Interval, Pieces: []vesting.Piece{
		{StartDate: tge + days(91), PeriodLength: days(1), NumberOfPeriods: 639, Percent: 1_000_000},
	}}
}

// tenThenMonthly: 10% at TGE, then 90% over 18 months.
func tenThenMonthly(tge uint32) vesting.Schedule {
	return vesting.Schedule{Kind: vesting.Interval, Pieces: []vesting.Piece{
		atTGE(tge, 100_000),
		{StartDate: tge + days(30), PeriodLength: days(30), NumberOfPeriods: 18, Percent: 900_000},
	}}
}

// monthly36: even monthly steps over three years.
func monthly36(tge uint32) vesting.Schedule {
	return vesting.Schedule{Kind: vesting.Interval, Pieces: []vesting.Piece{
		{StartDate: tge, PeriodLength: days(30), NumberOfPeriods: 36, Percent: 1_000_000},
	}}
}

// ether returns n ten-thousandths of an ether (or token) in wei.
func ether(n int64) *big.Int { return units(0, n, 4) }

// distributionSpecs is the seed's distributions. The first is the first
// contract of the first token, and its first two allocations (one calendar,
// one interval) belong to demo wallets 0 and 1: the fixtures' first ids.
var distributionSpecs = []distributionSpec{
	{
		token: 0, contract: "Team & Advisors Vesting", name: "Team & Advisors", kind: ContractVesting,
		claimFee: ether(5), tge: 150, flags: [4]bool{true, true, true, false},
		rounds: []roundSpec{{
			size: 1200, age: 160, minTokens: 1_000, maxTokens: 150_000, demo: []int{0, 1},
			schedules: []scheduleSpec{{"TGE 10% + 18 monthly", tgeThenMonthly}, {"TGE 15%, cliff, 24 monthly", tgeCliffMonthly}},
		}},
	},
	{
		token: 0, contract: "Seed & Strategic Vesting", name: "Seed & Strategic", kind: ContractVesting,
		claimFee: ether(5), tge: 150,
		rounds: []roundSpec{
			{
				size: 1000, age: 180, minTokens: 5_000, maxTokens: 200_000,
				schedules: []scheduleSpec{{"Quarterly over 2 years", quarterly}, {"Daily over 2 years after cliff", dailyAfterCliff}},
			},
			{
				size: 120, age: 20, minTokens: 50_000, maxTokens: 1_000_000, demo: []int{2},
				schedules: []scheduleSpec{{"TGE 10% + 18 monthly (strategic)", tenThenMonthly}},
			},
		},
	},
	{
		token: 0, contract: "Community Airdrop", name: "Community Airdrop", kind: ContractAirdrop,
		claimFee: ether(2), tge: 30, flags: [4]bool{false, false, false, true},
		rounds: []roundSpec{{
			size: 1000, age: 35, minTokens: 50, maxTokens: 5_000, demo: []int{0, 3},
			schedules: []scheduleSpec{{"Airdrop halves", airdropHalves}},
		}},
	},
	{
		token: 1, contract: "Harbor Ecosystem Vesting", name: "Harbor Ecosystem", kind: ContractVesting,
		claimFee: ether(10), tge: 400, flags: [4]bool{true, false, false, false},
		rounds: []roundSpec{{
			size: 1000, age: 410, minTokens: 1_000, maxTokens: 100_000, demo: []int{1},
			schedules: []scheduleSpec{{"Monthly over 3 years", monthly36}, {"Annual thirds", annualThirds}},
		}},
	},
	// The distributions that show an allocation's life (D18) are the
	// second token's, so that the first token's contracts, the dashboard's
	// first screen, stay as they were.
	{
		// Its flags allow cancel, revoke and a transfer by the benefactor.
		token: 1, contract: "Harbor Team Vesting", name: "Harbor Team", kind: ContractVesting,
		claimFee: ether(10), tge: 150, flags: [4]bool{true, true, true, false},
		rounds: []roundSpec{{
			size: 12, age: 160, minTokens: 1_000, maxTokens: 150_000,
			schedules: []scheduleSpec{{"TGE 10% + 18 monthly (team)", tgeThenMonthly}, {"TGE 15%, cliff, 24 monthly (team)", tgeCliffMonthly}},
			lives: []lifeSpec{
				{wallet: 2, transferTo: -1, claimPPM: 400_000, life: Life{State: StateClaimedInPart}},
				{wallet: 3, transferTo: -1, life: Life{State: StateCancelled, Cancel: true}},
				{wallet: 0, transferTo: -1, claimPPM: 500_000, life: Life{State: StateRevoked, Revoke: true}},
				{wallet: 1, transferTo: 2, life: Life{State: StateTransferred}},
			},
		}},
	},
	{
		// Funded with 1% of what it owes: its demo allocation (a tenth of
		// it, 35% vested at the start) has vested more than it holds.
		token: 1, contract: "Harbor Grants Vesting", name: "Harbor Grants", kind: ContractVesting,
		claimFee: ether(10), tge: 180, fundedPPM: 10_000,
		rounds: []roundSpec{{
			size: 10, age: 190, minTokens: 20_000, maxTokens: 20_000,
			schedules: []scheduleSpec{{"TGE 10% + 18 monthly (grants)", tenThenMonthly}},
			lives:     []lifeSpec{{wallet: 2, transferTo: -1, life: Life{State: StateUnderfunded}}},
		}},
	},
	{
		// Its claims go to a post-claim vault, not to the wallet.
		token: 1, contract: "Harbor Locked Grants", name: "Harbor Locked Grants", kind: ContractVesting,
		claimFee: ether(10), tge: 120, handler: "Harbor Grants Vault",
		rounds: []roundSpec{{
			size: 10, age: 130, minTokens: 5_000, maxTokens: 50_000,
			schedules: []scheduleSpec{{"Monthly over 3 years (locked grants)", monthly36}},
			lives:     []lifeSpec{{wallet: 3, transferTo: -1, life: Life{State: StateThroughHandler}}},
		}},
	},
}

// seedDistributions lays out every distribution's vester, roots and
// allocations, amounts and schedules included; seedLeaves encodes them.
func (w *World) seedDistributions() {
	var lives []*Allocation // the fixtures list them last
	for n, spec := range distributionSpecs {
		token := w.Tokens[spec.token]
		tge := w.Start.Add(-time.Duration(spec.tge) * day)
		contract := w.addContract(token, spec.contract, spec.kind, tge.Add(-45*day))
		d := &Distribution{
			ID:         seedID("distribution", spec.name),
			TokenID:    token.ID,
			ContractID: contract.ID,
			Name:       spec.name,
			ClaimFee:   spec.claimFee,
		}
		if spec.handler != "" {
			d.Handler = &Handler{
				ID:      seedID("post-claim-handler", spec.handler),
				Name:    spec.handler,
				Address: syntheticAddress("post-claim-handler/" + spec.handler),
			}
		}
		contract.Distribution = d
		w.Distributions = append(w.Distributions, d)
		rng := rand.New(rand.NewPCG(uint64(n), 0x5eed_d157))
		for r, round := range spec.rounds {
			root := &Root{
				Index:     uint32(r),
				TreeID:    seedID("merkle-tree", fmt.Sprintf("%s/%d", spec.name, r)),
				CreatedAt: w.Start.Add(-time.Duration(round.age) * day),
			}
			d.Roots = append(d.Roots, root)
			for i := range round.size {
				a := w.newAllocation(d, spec, round, root, uint32(tge.Unix()), i, rng)
				root.Allocations = append(root.Allocations, a)
				contract.Balance.Add(contract.Balance, a.Args.Allocation.TotalAllocation)
				switch {
				case i < len(round.demo):
					w.FixtureAllocations = append(w.FixtureAllocations, a)
				case i < len(round.demo)+len(round.lives):
					lives = append(lives, a)
					if claimPPM := round.lives[i-len(round.demo)].claimPPM; claimPPM > 0 {
						a.Life.Claimed = ppm(a.Args.Unlocked(w.Start), claimPPM)
					}
				}
			}
		}
		d.Funded = new(big.Int).Set(contract.Balance)
		if spec.fundedPPM > 0 {
			d.Funded = ppm(d.Funded, spec.fundedPPM)
			contract.Balance.Set(d.Funded)
		}
		for _, a := range lives {
			if a.distribution == d && a.Life.Claimed != nil {
				contract.Balance.Sub(contract.Balance, a.Life.Claimed)
			}
		}
	}
	w.FixtureAllocations = append(w.FixtureAllocations, lives...)
}

// seedLeaves computes every allocation's decodableArgs and leaf, and every
// root's merkle tree: most of the seed's cost, left to Finish.
func (w *World) seedLeaves(ctx context.Context) error {
	if ctx.Err() != nil {
		return context.Cause(ctx) // as a computation would end
	}
	if w.reuseLeaves(rememberedLeaves(w.Start)) {
		return nil
	}
	if err := encodeLeaves(ctx, w.Allocations); err != nil {
		return err
	}
	for _, d := range w.Distributions {
		for _, root := range d.Roots {
			leaves := make([]common.Hash, len(root.Allocations))
			for i, a := range root.Allocations {
				leaves[i] = a.Leaf
			}
			tree, err := merkle.New(leaves)
			if err != nil {
				return fmt.Errorf("distribution %s root %d: %w", d.Name, root.Index, err)
			}
			root.tree, root.Hash = tree, tree.Root()
		}
	}
	rememberLeaves(w.Start, w.keptLeaves())
	return nil
}

func (w *World) newAllocation(d *Distribution, spec distributionSpec, round roundSpec, root *Root, tge uint32, i int, rng *rand.Rand) *Allocation {
	name := fmt.Sprintf("%s/%d/%d", spec.name, root.Index, i)
	beneficiary := syntheticAddress("beneficiary/" + name)
	var life *Life
	switch j := i - len(round.demo); {
	case i < len(round.demo):
		beneficiary = w.Wallets[round.demo[i]].Address
	case j < len(round.lives):
		l := round.lives[j] // a copy: its life is this allocation's own
		beneficiary = w.Wallets[l.wallet].Address
		life = &l.life
		if l.transferTo >= 0 {
			life.TransferTo = w.Wallets[l.transferTo].Address
		}
	}
	sched := round.schedules[i%len(round.schedules)]
	schedule := sched.build(tge)
	schedule.UnlockScheduleID = seedID("unlock-schedule", spec.name+"/"+sched.name)
	// Whole tokens and cents: realistic, and exact in any unit.
	cents := round.minTokens*100 + rng.Int64N((round.maxTokens-round.minTokens)*100+1)
	id := seedID("allocation", name)
	a := &Allocation{
		ID:             id,
		DistributionID: d.ID,
		RootIndex:      root.Index,
		CreatedAt:      root.CreatedAt,
		Args: vesting.Args{
			Allocation: vesting.Allocation{
				ID:                        id,
				OriginalBeneficiary:       beneficiary,
				TotalAllocation:           units(0, cents, 2),
				Cancelable:                spec.flags[0],
				Revokable:                 spec.flags[1],
				TransferableByAdmin:       spec.flags[2],
				TransferableByBeneficiary: spec.flags[3],
			},
			Schedule: schedule,
		},
		Life:         life,
		distribution: d,
	}
	w.Allocations = append(w.Allocations, a)
	w.allocations[id] = a
	return a
}

// encodeLeaves computes every allocation's decodableArgs and leaf. It is
// most of the seed's cost, so it runs on every core, and stops early when
// ctx ends.
func encodeLeaves(ctx context.Context, all []*Allocation) error {
	workers := runtime.GOMAXPROCS(0)
	chunk := (len(all) + workers - 1) / workers
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for n := range workers {
		lo, hi := min(n*chunk, len(all)), min((n+1)*chunk, len(all))
		wg.Go(func() {
			for i, a := range all[lo:hi] {
				if i%256 == 0 && ctx.Err() != nil {
					errs[n] = context.Cause(ctx)
					return
				}
				data, err := encodeArgs(a.Args)
				if err != nil {
					errs[n] = fmt.Errorf("allocation %s: %w", a.ID, err)
					return
				}
				a.DecodableArgs, a.Leaf = data, merkle.Leaf(data)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

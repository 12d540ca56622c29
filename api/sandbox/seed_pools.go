package sandbox

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// stake is one stake, packed: the whale pool holds 100,000 of them, and
// they are rendered to JSON only when listed.
type stake struct {
	cents  uint64 // amount in hundredths of a token
	at     uint32 // createdAt, Unix seconds
	staker uint32 // index into World.stakers
	status uint8  // index into stakeStatuses
}

var stakeStatuses = [...]string{StakeStaked, StakeUnstaking, StakeWithdrawn}

const (
	staked uint8 = iota
	unstaking
	withdrawn
)

// staker is a wallet that holds stakes, with its EIP-55 form computed once.
type staker struct {
	address common.Address
	hex     string
}

// seedStakers lists the demo wallets, then syntheticStakers other wallets,
// and indexes them. A stake names its staker by index, so the pools are
// seeded without them.
func (w *World) seedStakers() {
	w.stakers = make([]staker, DemoWallets, DemoWallets+syntheticStakers)
	for i, wallet := range w.Wallets {
		w.stakers[i] = staker{wallet.Address, wallet.Address.Hex()}
	}
	w.stakers = append(w.stakers, syntheticStakerList()...)
	w.stakerIndex = make(map[common.Address]uint32, len(w.stakers))
	for i, s := range w.stakers {
		w.stakerIndex[s.address] = uint32(i)
	}
}

// syntheticStakerList are the stakers after the demo wallets, the same in
// every World: derived once per process (a keccak each, for the address
// and its checksum), spread over the cores.
var syntheticStakerList = sync.OnceValue(func() []staker {
	list := make([]staker, syntheticStakers)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for n := range workers {
		wg.Go(func() {
			for i := n; i < len(list); i += workers {
				addr := syntheticAddress(fmt.Sprintf("staker/%d", DemoWallets+i))
				list[i] = staker{addr, addr.Hex()}
			}
		})
	}
	wg.Wait()
	return list
})

// A poolSlot is one kind of pool in a season: how long stakes lock, and
// whether the pool is flexible or locked (longer delays, better APY).
type poolSlot struct {
	term int // days
	tier string
}

// A seasonSpec is a season of pools of a token, on one staking contract.
type seasonSpec struct {
	number   int
	age      int // days before Start the season started
	contract int // index into the token's staking contracts
}

// demoStake puts a demo wallet's stake into a pool.
type demoStake struct {
	wallet int
	cents  uint64
	status uint8
}

const whalePoolName = "Whale pool"

func (w *World) seedPools() {
	meridian, harbor := w.Tokens[0], w.Tokens[1]
	var seasons []seasonSpec
	for s := 8; s >= 1; s-- {
		contract := 1
		if s <= 4 {
			contract = 0
		}
		seasons = append(seasons, seasonSpec{number: s, age: 20 + (8-s)*75, contract: contract})
	}
	w.seedTokenPools(meridian, []stakingSpec{
		{"Meridian Staking", ether(3), 20 + 7*75 + 10},
		{"Meridian Staking v2", ether(2), 20 + 3*75 + 10},
	}, seasons, []poolSlot{
		{30, "Flex"}, {30, "Lock"}, {60, "Flex"}, {60, "Lock"},
		{90, "Flex"}, {90, "Lock"}, {180, "Flex"}, {180, "Lock"},
	}, poolExtras{
		whaleAt: 2,
		paused:  map[int]bool{5: true, 15: true},
		demo: map[int][]demoStake{
			0: {{0, 2500_00, staked}, {1, 1200_50, staked}},
			1: {{0, 1800_00, unstaking}},
			2: {{0, 15000_00, staked}, {1, 4200_00, staked}},
			3: {{3, 1500_00, staked}},
		},
	})
	w.seedTokenPools(harbor, []stakingSpec{{"Harbor Staking", ether(5), 110}}, []seasonSpec{
		{number: 2, age: 10}, {number: 1, age: 100},
	}, []poolSlot{
		{30, "Flex"}, {30, "Lock"}, {90, "Flex"}, {90, "Lock"}, {180, "Flex"}, {180, "Lock"},
	}, poolExtras{
		whaleAt: -1,
		demo:    map[int][]demoStake{0: {{2, 5000_00, staked}}},
	})
}

// A stakingSpec is a staking contract of a token.
type stakingSpec struct {
	name        string
	platformFee *big.Int // wei
	age         int      // days before Start it was deployed
}

// poolExtras place the exceptions among a token's pools.
type poolExtras struct {
	whaleAt int          // list index of the whale pool; -1: none
	paused  map[int]bool // list indexes of paused pools
	demo    map[int][]demoStake
}

func (w *World) seedTokenPools(token *Token, stakings []stakingSpec, seasons []seasonSpec, slots []poolSlot, extras poolExtras) {
	var contracts []*Contract
	for _, s := range stakings {
		c := w.addContract(token, s.name, ContractStaking, w.Start.Add(-time.Duration(s.age)*day))
		c.PlatformFee = s.platformFee
		contracts = append(contracts, c)
	}
	rng := rand.New(rand.NewPCG(uint64(len(w.Pools)), 0x5eed_9001))
	for _, season := range seasons {
		start := w.Start.Add(-time.Duration(season.age) * day)
		for _, slot := range slots {
			index := poolCount(w.Pools, token.ID)
			p := newPool(token, contracts[season.contract], season, slot, start, index == extras.whaleAt)
			switch {
			case !p.PeriodFinish.After(w.Start):
				p.Status = PoolFinished
			case extras.paused[index]:
				p.Status = PoolPaused
			default:
				p.Status = PoolActive
			}
			count := 20 + rng.IntN(381)
			if p.Name == whalePoolName {
				count = w.whaleStakes
				w.BigPool = p
			}
			w.seedStakes(p, start, count, extras.demo[index], rng)
			p.TotalRewardsDeposited = rewards(p.TotalStaked, poolAPY(slot, p.Name == whalePoolName), p.PeriodFinish.Sub(start))
			contracts[season.contract].Balance.Add(contracts[season.contract].Balance, p.TotalStaked)
			contracts[season.contract].Balance.Add(contracts[season.contract].Balance, p.TotalRewardsDeposited)
			w.Pools = append(w.Pools, p)
			w.pools[p.ID] = p
		}
	}
}

func newPool(token *Token, contract *Contract, season seasonSpec, slot poolSlot, start time.Time, whale bool) *Pool {
	name := fmt.Sprintf("Season %d · %d-day %s", season.number, slot.term, slot.tier)
	length := time.Duration(slot.term+60) * day
	p := &Pool{
		TokenID:               token.ID,
		ContractID:            contract.ID,
		MinimumStakeAmount:    units(100, 0, 0),
		MinimumStakeLength:    int64(slot.term) * secondsPerDay,
		StakeWithdrawalDelay:  1 * secondsPerDay,
		RewardWithdrawalDelay: 0,
		ClaimNativeTokenFee:   ether(1),
		UnstakeNativeTokenFee: ether(5),
		CreatedAt:             start.Add(-3 * day),
	}
	if slot.tier == "Lock" {
		p.MinimumStakeAmount = units(1000, 0, 0)
		p.StakeWithdrawalDelay = 7 * secondsPerDay
		p.RewardWithdrawalDelay = 1 * secondsPerDay
		p.ClaimNativeTokenFee, p.UnstakeNativeTokenFee = ether(2), ether(10)
	}
	if whale {
		name = whalePoolName
		length = 365 * day
		p.MinimumStakeLength = 365 * secondsPerDay
		p.StakeWithdrawalDelay = 14 * secondsPerDay
	}
	p.ID = seedID("staking-pool", token.Symbol+"/"+name)
	p.Name = name
	p.PeriodFinish = start.Add(length)
	p.MaxAPY = formatMilli(poolAPY(slot, whale))
	return p
}

// poolAPY returns the pool's maximum APY in thousandths of a percent.
func poolAPY(slot poolSlot, whale bool) int64 {
	if whale {
		return 20_000
	}
	apy := map[int]int64{30: 6_500, 60: 8_000, 90: 11_250, 180: 15_000}[slot.term]
	if slot.tier == "Lock" {
		apy = apy * 3 / 2
	}
	return apy
}

// formatMilli writes thousandths as a decimal: 16875 -> "16.875".
func formatMilli(n int64) string {
	return formatUnits(units(0, n, 3))
}

// rewards is what a pool deposited to pay apy (thousandths of a percent a
// year) on staked over its length, in whole tokens as operators deposit.
func rewards(staked *big.Int, apy int64, length time.Duration) *big.Int {
	r := new(big.Int).Mul(staked, big.NewInt(apy*int64(length/day)))
	r.Quo(r, new(big.Int).Mul(big.NewInt(100_000*365), unit))
	return r.Mul(r, unit)
}

// seedStakes fills p with count stakes made between start and the earlier of
// the sandbox's start and the pool's finish, in time order; the demo
// wallets' stakes come first.
func (w *World) seedStakes(p *Pool, start time.Time, count int, demo []demoStake, rng *rand.Rand) {
	from := start.Unix()
	to := min(w.Start.Unix(), p.PeriodFinish.Unix()) - 3600
	step := max((to-from)/int64(count), 1)
	minCents := new(big.Int).Quo(p.MinimumStakeAmount, units(0, 1, 2)).Uint64()
	p.stakes = make([]stake, count)
	total := uint64(0)
	for i := range p.stakes {
		s := stake{
			at:     uint32(from + int64(i)*step + rng.Int64N(step)),
			staker: uint32(DemoWallets + rng.IntN(syntheticStakers)),
			cents:  minCents + rng.Uint64N(minCents*20),
			status: stakeStatus(p.Status, rng),
		}
		if rng.IntN(20) == 0 {
			s.cents *= 10
		}
		if i < len(demo) {
			s.staker, s.cents, s.status = uint32(demo[i].wallet), demo[i].cents, demo[i].status
		}
		if s.status != withdrawn {
			total += s.cents
		}
		p.stakes[i] = s
	}
	p.TotalStaked = units(0, int64(total), 2)
}

// stakeStatus draws a stake's status: most stakes of a running pool are
// staked; most of a finished one have been withdrawn.
func stakeStatus(poolStatus string, rng *rand.Rand) uint8 {
	n := rng.IntN(100)
	if poolStatus == PoolFinished {
		switch {
		case n < 70:
			return withdrawn
		case n < 90:
			return unstaking
		}
		return staked
	}
	switch {
	case n < 88:
		return staked
	case n < 96:
		return unstaking
	}
	return withdrawn
}

func poolCount(pools []*Pool, tokenID string) int {
	n := 0
	for _, p := range pools {
		if p.TokenID == tokenID {
			n++
		}
	}
	return n
}

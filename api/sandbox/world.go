package sandbox

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"sync"
	"time"

	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// World is the sandbox's seed data: what Seed generates and a Server serves.
// It is exported so that a chain integration can deploy the same world on a
// chain (tokens, one vester per distribution with its roots and claim fee,
// staking contracts, wallet balances) before handing it to New. A World is
// never modified after Seed returns, or after Finish for one made by
// SeedFirst; treat every field as read-only.
//
// Amounts are in base units (18 decimals); fees in wei. Addresses are the
// synthetic ones a sandbox without a chain shows; Options.Chain overrides
// them.
type World struct {
	// Start is the UTC midnight the data is laid out around: schedules began
	// before it and run on after it, so allocations are partly unlocked.
	Start time.Time
	// whaleStakes is how many stakes the whale pool was seeded with.
	whaleStakes int

	Tokens        []*Token
	Contracts     []*Contract // in list order, grouped by token
	Distributions []*Distribution
	Pools         []*Pool // in list order (newest first), grouped by token
	Allocations   []*Allocation
	AdminWallets  []*AdminWallet
	Wallets       []*Wallet // the demo wallets, with their keys
	Portal        *Portal

	// BigPool is the "Whale pool", holding WhaleStakes stakes unless
	// seeded with SeedSized.
	BigPool *Pool
	// FixtureAllocations are the allocations the fixtures list, in order:
	// the first two belong to the first distribution of the first token and
	// to demo wallets 0 and 1; those with a Life come last (the fixtures'
	// LifeAllocationIDs).
	FixtureAllocations []*Allocation

	tokens           map[string]*Token
	contracts        map[string]*Contract
	pools            map[string]*Pool
	allocations      map[string]*Allocation
	adminWallets     map[string]*AdminWallet
	contractsByToken map[string][]*Contract
	poolsByToken     map[string][]*Pool
	stakers          []staker // every wallet that holds a stake, demo wallets first
	stakerIndex      map[common.Address]uint32

	// finished is closed when Finish has run, with finishErr.
	finished   chan struct{}
	finishOnce sync.Once
	finishErr  error
}

// Token is an ERC-20 token with 18 decimals.
type Token struct {
	ID        string
	Name      string
	Symbol    string
	Address   common.Address
	Supply    *big.Int
	CreatedAt time.Time
}

// Contract types, the `type` of a contract list item. A VESTING contract is
// the merkle vester of one distribution whose allocations unlock over time;
// an AIRDROP contract is the same vester for a distribution that unlocks in
// one or two steps; a STAKING contract holds staking pools.
const (
	ContractVesting = "VESTING"
	ContractAirdrop = "AIRDROP"
	ContractStaking = "STAKING"
)

// Contract is a contract registered for a token.
type Contract struct {
	ID        string
	TokenID   string
	Name      string
	Type      string // ContractVesting, ContractAirdrop or ContractStaking
	Address   common.Address
	Balance   *big.Int // the token balance it holds at start
	CreatedAt time.Time

	// Distribution is the distribution a vester holds; nil for STAKING.
	Distribution *Distribution
	// PlatformFee is the wei a stake pays (D11); STAKING only.
	PlatformFee *big.Int
}

// Distribution is the set of allocations a vester pays out, committed as one
// merkle root per round.
type Distribution struct {
	ID         string
	TokenID    string
	ContractID string
	Name       string
	ClaimFee   *big.Int // wei, the msg.value of withdraw (D8)
	Roots      []*Root  // Roots[i].Index == i
	// Funded is what the vester is funded with: its allocations' totals,
	// or less for an underfunded one, which then pays claims first come,
	// first served (D18). The contract's Balance starts at it.
	Funded *big.Int
	// Handler, when set, is the post-claim handler every claim of the
	// distribution goes through (D18): the vester allows no direct claim,
	// and pays the handler, not the wallet.
	Handler *Handler
}

// Handler is a post-claim handler a vester forwards claims to: on a chain,
// a PostClaimVault (assets/contracts) holding them for the withdrawal
// address.
type Handler struct {
	ID      string // a seed record id: Chain.Address finds it
	Name    string
	Address common.Address // synthetic, until a chain has it
}

// Root is one merkle root of a distribution, as merkleRoots(Index) returns it.
type Root struct {
	Index       uint32
	TreeID      string
	Hash        common.Hash // set by Finish
	CreatedAt   time.Time
	Allocations []*Allocation
	tree        *merkle.Tree // set by Finish
}

// Allocation is one leaf of a distribution (D8).
type Allocation struct {
	ID             string
	DistributionID string
	RootIndex      uint32
	Args           vesting.Args // Args.Allocation.ID == ID
	DecodableArgs  []byte       // set by Finish
	Leaf           common.Hash  // set by Finish
	CreatedAt      time.Time
	// Life is what the seed does to the allocation once its root is
	// committed (a demo of D18's states); nil for most.
	Life *Life

	distribution *Distribution
}

// Beneficiary is the wallet the allocation pays out to.
func (a *Allocation) Beneficiary() common.Address { return a.Args.Allocation.OriginalBeneficiary }

// Distribution is the distribution the allocation belongs to.
func (a *Allocation) Distribution() *Distribution { return a.distribution }

// Proof returns the allocation's merkle proof, leaf to root.
func (a *Allocation) Proof() ([]common.Hash, error) {
	root := a.distribution.Roots[a.RootIndex]
	proof, err := root.tree.Proof(a.Leaf)
	if err != nil {
		return nil, fmt.Errorf("proof of allocation %s: %w", a.ID, err)
	}
	return proof, nil
}

// Pool statuses. A pool is ACTIVE while it takes stakes and pays rewards,
// PAUSED when its operator stopped it for now, FINISHED after periodFinish.
const (
	PoolActive   = "ACTIVE"
	PoolPaused   = "PAUSED"
	PoolFinished = "FINISHED"
)

// Stake statuses. STAKED counts towards the pool's total; UNSTAKING is
// waiting out stakeWithdrawalDelay and still counts; WITHDRAWN has left.
const (
	StakeStaked    = "STAKED"
	StakeUnstaking = "UNSTAKING"
	StakeWithdrawn = "WITHDRAWN"
)

// Pool is a staking pool. Durations are in seconds: the service's interface
// leaves their unit open, and seconds are what staking contracts count in.
type Pool struct {
	ID                    string
	TokenID               string
	ContractID            string
	Name                  string
	Status                string
	TotalStaked           *big.Int // the sum of its STAKED and UNSTAKING stakes
	TotalRewardsDeposited *big.Int
	PeriodFinish          time.Time
	MinimumStakeAmount    *big.Int
	MinimumStakeLength    int64    // seconds
	StakeWithdrawalDelay  int64    // seconds
	RewardWithdrawalDelay int64    // seconds
	MaxAPY                string   // percent per year, a decimal string: "12.5" is 12.5%
	ClaimNativeTokenFee   *big.Int // wei
	UnstakeNativeTokenFee *big.Int // wei
	CreatedAt             time.Time

	stakes []stake
	// listing is the items of the response listing every stake, rendered
	// once on first request: the whale pool's are about 20 MB.
	listing struct {
		once  sync.Once
		items stakeItems
	}
}

// StakeCount returns how many stakes the pool holds.
func (p *Pool) StakeCount() int { return len(p.stakes) }

// AdminWallet is a wallet the service administers contracts with.
type AdminWallet struct {
	ID      string
	Name    string
	Address common.Address
}

// Wallet is a demo wallet: a deterministic key, a keystore passphrase, and
// what the chain integration should give it.
type Wallet struct {
	Index      int
	Address    common.Address
	Key        *ecdsa.PrivateKey
	Passphrase string
	// Holdings are token balances by token id, in base units, and Native
	// the native coin in wei: enough to stake and to pay fees.
	Holdings map[string]*big.Int
	Native   *big.Int
}

// Portal is the claim portal with its users' submissions.
type Portal struct {
	ID          string
	Slug        string
	Name        string
	Submissions map[common.Address]*Submission
}

// Submission is what one wallet submitted to the portal.
type Submission struct {
	ClaimWallet *common.Address
	Submitted   bool
	PoHPassed   bool
	Accounts    []SubmissionAccount
}

// SubmissionAccount is one account of a submission.
type SubmissionAccount struct {
	Value       string
	Type        string // "WALLET"
	IsEligible  bool
	Description *string
}

// Token returns the token with this id.
func (w *World) Token(id string) (*Token, bool) {
	t, ok := w.tokens[normalizeID(id)]
	return t, ok
}

// Contract returns the contract with this id.
func (w *World) Contract(id string) (*Contract, bool) {
	c, ok := w.contracts[normalizeID(id)]
	return c, ok
}

// Pool returns the staking pool with this id.
func (w *World) Pool(id string) (*Pool, bool) {
	p, ok := w.pools[normalizeID(id)]
	return p, ok
}

// Allocation returns the allocation with this id.
func (w *World) Allocation(id string) (*Allocation, bool) {
	a, ok := w.allocations[normalizeID(id)]
	return a, ok
}

// AdminWallet returns the admin wallet with this id.
func (w *World) AdminWallet(id string) (*AdminWallet, bool) {
	a, ok := w.adminWallets[normalizeID(id)]
	return a, ok
}

// TokenContracts returns the contracts of a token, in list order.
func (w *World) TokenContracts(tokenID string) []*Contract {
	return w.contractsByToken[normalizeID(tokenID)]
}

// TokenPools returns the pools of a token, in list order.
func (w *World) TokenPools(tokenID string) []*Pool {
	return w.poolsByToken[normalizeID(tokenID)]
}

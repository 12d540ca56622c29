package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// An allocation's life on the production vester (D18): the leaf never
// changes; what happened to the allocation since (what was withdrawn, a
// new withdrawal address, a cancel or a revoke) is in the vester's
// schedules(allocationId), and what a withdraw pays is bounded by the
// tokens the vester holds.

// ErrNoSchedules: the vester does not answer schedules(allocationId), the
// record the production vester keeps of an allocation. Without it what was
// withdrawn, where the tokens go and whether the allocation was cancelled
// are unknown: the state is NOT CHECKED, never guessed.
var ErrNoSchedules = errors.New("the vester does not answer schedules(allocationId), the production vester's record of an allocation")

// Terminated states of schedules(id).terminatedTimestamp (D18): 0 is
// active, 1 revoked, any later time cancelled at that time.
const (
	terminatedNone    = 0
	terminatedRevoked = 1
)

// Standing is an allocation's record on its vester and the tokens the
// vester holds: what a claim of it can take.
type Standing struct {
	Vester common.Address
	// WithdrawalAddress is where the tokens of a claim go; zero means the
	// leaf's originalBeneficiary (Recipient).
	WithdrawalAddress common.Address
	// TerminatedTimestamp: 0 active, 1 revoked, else cancelled at that
	// Unix time.
	TerminatedTimestamp uint32
	// Withdrawn is what the vester paid out of the allocation already.
	Withdrawn *big.Int
	// Token is the vester's token() and VesterBalance its balance of it.
	Token         common.Address
	VesterBalance *big.Int
	// Handlers is the vester's whitelist of post-claim handlers
	// (getPostClaimHandlers); the zero address in it is the direct claim.
	Handlers []common.Address
}

// ReadStanding reads allocationID's record from the vester (schedules),
// the vester's token (token()) and its balance of it, and the vester's
// post-claim handlers. A vester that answers no schedules is
// ErrNoSchedules; any read that fails is an error: nothing is assumed.
func ReadStanding(ctx context.Context, caller ethereum.ContractCaller, vester common.Address, allocationID string) (*Standing, error) {
	values, err := viewAll(ctx, caller, vesterABI, vester, "schedules", allocationID)
	switch {
	case err != nil && (reverted(err) || errors.Is(err, ErrNoContract)):
		return nil, fmt.Errorf("%w: %v", ErrNoSchedules, err)
	case err != nil:
		return nil, err
	case len(values) != 6:
		return nil, fmt.Errorf("schedules at %s: %d results, want 6", vester.Hex(), len(values))
	}
	s := &Standing{Vester: vester}
	var ok [3]bool
	s.WithdrawalAddress, ok[0] = values[0].(common.Address)
	s.TerminatedTimestamp, ok[1] = values[1].(uint32)
	s.Withdrawn, ok[2] = values[2].(*big.Int)
	if ok != [3]bool{true, true, true} {
		return nil, fmt.Errorf("schedules at %s: unexpected results %T, %T, %T", vester.Hex(), values[0], values[1], values[2])
	}
	if s.Token, err = view[common.Address](ctx, caller, vesterABI, vester, "token"); err != nil {
		return nil, fmt.Errorf("the vester's token: %w", err)
	}
	if s.VesterBalance, err = TokenBalance(ctx, caller, s.Token, vester); err != nil {
		return nil, fmt.Errorf("the vester's balance of its token %s: %w", s.Token.Hex(), err)
	}
	if s.Handlers, err = PostClaimHandlers(ctx, caller, vester); err != nil {
		return nil, fmt.Errorf("the vester's post-claim handlers: %w", err)
	}
	return s, nil
}

// DirectClaim reports whether the vester pays a claim to the withdrawal
// address itself: its whitelist holds the zero address. A vester without
// it pays only through a post-claim handler.
func (s *Standing) DirectClaim() bool { return slices.Contains(s.Handlers, common.Address{}) }

// ViaHandlers are the post-claim handler contracts the vester may pay a
// claim to instead of the withdrawal address.
func (s *Standing) ViaHandlers() []common.Address {
	return slices.DeleteFunc(slices.Clone(s.Handlers), func(a common.Address) bool { return a == common.Address{} })
}

// Terminated reports whether the allocation was cancelled or revoked:
// vesting stopped.
func (s *Standing) Terminated() bool { return s.TerminatedTimestamp != terminatedNone }

// Revoked reports whether the allocation was revoked: nothing vests.
func (s *Standing) Revoked() bool { return s.TerminatedTimestamp == terminatedRevoked }

// CancelledAt is when the allocation was cancelled: vesting stopped then.
// ok is false when it was not (active or revoked).
func (s *Standing) CancelledAt() (at time.Time, ok bool) {
	if s.TerminatedTimestamp <= terminatedRevoked {
		return time.Time{}, false
	}
	return time.Unix(int64(s.TerminatedTimestamp), 0).UTC(), true
}

// State names the allocation's state as the vester keeps it: "active",
// "cancelled" or "revoked".
func (s *Standing) State() string {
	switch {
	case s.Revoked():
		return "revoked"
	case s.TerminatedTimestamp != terminatedNone:
		return "cancelled"
	}
	return "active"
}

// Recipient is the address the tokens of a claim reach: the withdrawal
// address when one was set, else the leaf's beneficiary.
func (s *Standing) Recipient(beneficiary common.Address) common.Address {
	if s.WithdrawalAddress != (common.Address{}) {
		return s.WithdrawalAddress
	}
	return beneficiary
}

// Transferred reports whether the tokens go elsewhere than to the leaf's
// beneficiary (transferBeneficiaryAddress).
func (s *Standing) Transferred(beneficiary common.Address) bool {
	return s.Recipient(beneficiary) != beneficiary
}

// vestingTime is the time the vester computes vesting at for a claim at
// head: time 1 for a revoked allocation, the earlier of head and the
// cancel time for a cancelled one.
func (s *Standing) vestingTime(head time.Time) time.Time {
	if s.Revoked() {
		return time.Unix(1, 0).UTC()
	}
	if at, ok := s.CancelledAt(); ok && at.Before(head) {
		return at
	}
	return head
}

// Payout is what a withdraw(0) of the allocation pays at a time (D18).
type Payout struct {
	// VestedAt is the time vesting is computed at (see vestingTime).
	VestedAt time.Time
	// Vested is what the schedule has vested at VestedAt; nil when the
	// vester cannot compute it (Unclaimable).
	Vested *big.Int
	// Owed is Vested less what was withdrawn, never below zero.
	Owed *big.Int
	// Withdrawable is what a withdraw(0) pays: Owed, but no more than the
	// vester holds.
	Withdrawable *big.Int
	// Unclaimable says why the vester reverts instead of computing what
	// is vested (a *vesting.UnclaimableError); the amounts are zero then.
	Unclaimable error
}

// Underfunded reports whether the vester holds less than the allocation
// is owed: a claim pays less than what is vested and not withdrawn.
func (p Payout) Underfunded() bool { return p.Withdrawable.Cmp(p.Owed) < 0 }

// Payout computes what a withdraw(0) of args's allocation pays at head,
// as the production vester does: withdrawable = min(vested - withdrawn,
// the vester's balance), vested at the cancel time of a cancelled
// allocation and at time 1 (nothing) of a revoked one. Where the vester
// would revert (vested below withdrawn underflows), nothing is payable.
func (s *Standing) Payout(args vesting.Args, head time.Time) Payout {
	p := Payout{VestedAt: s.vestingTime(head), Owed: new(big.Int), Withdrawable: new(big.Int)}
	p.Vested, p.Unclaimable = args.Vested(p.VestedAt)
	if p.Unclaimable != nil {
		return p
	}
	if p.Vested.Cmp(s.Withdrawn) > 0 {
		p.Owed.Sub(p.Vested, s.Withdrawn)
	}
	p.Withdrawable.Set(p.Owed)
	if s.VesterBalance.Cmp(p.Withdrawable) < 0 {
		p.Withdrawable.Set(s.VesterBalance)
	}
	return p
}

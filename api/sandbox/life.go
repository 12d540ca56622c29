package sandbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// The states the seed gives its demo allocations (D18), as
// Fixtures.AllocationStates names them.
const (
	// StateActive: nothing happened to the allocation since its root was
	// committed.
	StateActive = "active"
	// StateClaimedInPart: part of what had vested was claimed.
	StateClaimedInPart = "claimed-in-part"
	// StateCancelled: the benefactor cancelled it mid-schedule; what had
	// vested then stays claimable, nothing more vests.
	StateCancelled = "cancelled"
	// StateRevoked: part was claimed, then the benefactor revoked it:
	// nothing of it is claimable any more.
	StateRevoked = "revoked"
	// StateTransferred: the benefactor pointed its claims at another demo
	// wallet, which receives them from then on.
	StateTransferred = "transferred"
	// StateUnderfunded: its vester holds less than the allocation has
	// vested, and pays no more than it holds.
	StateUnderfunded = "underfunded"
	// StateThroughHandler: its claims go to a post-claim handler contract,
	// not to the wallet.
	StateThroughHandler = "through-handler"
)

// Life is what the seed does to an allocation once its root is committed.
// A chain deployment does it in transactions at the chain's time;
// without a chain, the sandbox holds it as done at the world's Start.
type Life struct {
	State string // one of the State constants
	// Claimed, when not nil, is claimed first, sent for the beneficiary
	// (anyone may send a withdraw): a share of what had vested at the
	// world's Start. The vester's seeded balance is less by it.
	Claimed *big.Int
	// Cancel, after the claim: vesting stops. It needs the schedule not
	// to have ended (production refuses AlreadyFullyUnlocked), so it is
	// left out when it has.
	Cancel bool
	// Revoke, after the claim: nothing more is claimable.
	Revoke bool
	// TransferTo, when set, becomes the allocation's withdrawal address.
	TransferTo common.Address
}

// revokedAt is the terminatedTimestamp of a revoked allocation (D18).
const revokedAt = 1

// vesterState is what the vester holds about an allocation: its
// schedules(id) (D18), and the vester's token balance.
type vesterState struct {
	withdrawalAddress common.Address // zero until first touched: the leaf's beneficiary
	terminated        uint32         // 0 active, revokedAt, else the cancel time
	withdrawn         *big.Int
	balance           *big.Int
}

// claimable is what a withdraw of the allocation takes at now, as the
// production vester computes it: what vested by now (by the cancel time
// when cancelled, at time 1 when revoked) less what was withdrawn, and no
// more than the vester holds. why says, when it is 0, why in words.
func (v vesterState) claimable(a *Allocation, now time.Time) (amount *big.Int, why string) {
	if v.terminated == revokedAt {
		return new(big.Int), "the allocation was revoked"
	}
	at := now
	if v.terminated != 0 {
		at = time.Unix(int64(v.terminated), 0)
		if now.Before(at) {
			at = now
		}
	}
	vested, err := a.Args.Vested(at)
	if err != nil {
		return new(big.Int), "the vester cannot compute it: " + err.Error()
	}
	if vested.Cmp(v.withdrawn) <= 0 {
		if v.terminated != 0 {
			return new(big.Int), "the allocation was cancelled, and what vested until then was claimed"
		}
		return new(big.Int), ""
	}
	amount = vested.Sub(vested, v.withdrawn)
	if amount.Cmp(v.balance) > 0 {
		amount.Set(v.balance)
		why = "the vester holds only " + formatUnits(v.balance)
	}
	return amount, why
}

// vesterState reads the allocation's state on the vester when the vester
// is on the chain, else takes it from the seed (the allocation's Life as
// done at the world's Start). What SetWithdrawn reported counts when it is
// more than the vester says.
func (s *Server) vesterState(ctx context.Context, a *Allocation) (vesterState, error) {
	d := a.distribution
	c, _ := s.world.Contract(d.ContractID)
	balance, err := s.balance(ctx, c)
	if err != nil {
		return vesterState{}, err
	}
	var v vesterState
	if addr, ok := s.vesterOnChain(d); ok {
		if v, err = s.readSchedule(ctx, addr, a.ID); err != nil {
			return vesterState{}, err
		}
	} else {
		v = seededState(a, s.world.Start)
	}
	v.balance = new(big.Int).Set(balance)
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.withdrawn[a.ID]; w != nil && w.Cmp(v.withdrawn) > 0 {
		v.withdrawn = new(big.Int).Set(w)
	}
	return v, nil
}

// vesterOnChain returns the address of the distribution's vester when it
// is on the chain.
func (s *Server) vesterOnChain(d *Distribution) (common.Address, bool) {
	if s.chain == nil {
		return common.Address{}, false
	}
	return s.chain.Address(d.ContractID)
}

// seededState is the state the seed leaves an allocation in, its Life
// done at start.
func seededState(a *Allocation, start time.Time) vesterState {
	v := vesterState{withdrawn: new(big.Int)}
	life := a.Life
	if life == nil {
		return v
	}
	if life.Claimed != nil {
		v.withdrawn = new(big.Int).Set(life.Claimed)
	}
	if life.Cancel && start.Before(ScheduleEnd(a)) {
		v.terminated = uint32(start.Unix())
	}
	if life.Revoke {
		v.terminated = revokedAt
	}
	v.withdrawalAddress = life.TransferTo
	return v
}

// ppm is x * p / 1,000,000, rounded down.
func ppm(x *big.Int, p int64) *big.Int {
	out := new(big.Int).Mul(x, big.NewInt(p))
	return out.Quo(out, big.NewInt(1_000_000))
}

// ScheduleEnd is when the allocation's schedule is fully unlocked: from
// then on the production vester refuses to cancel it.
func ScheduleEnd(a *Allocation) time.Time {
	s := a.Args.Schedule
	var end int64
	if n := len(s.UnlockTimestamps); n > 0 {
		end = int64(s.UnlockTimestamps[n-1])
	}
	if n := len(s.Pieces); n > 0 {
		p := s.Pieces[n-1]
		end = int64(p.StartDate) + int64(p.PeriodLength)*int64(p.NumberOfPeriods)
	}
	return time.Unix(end, 0)
}

var errScheduleAnswer = errors.New("not a schedules(string) answer")

// readSchedule calls the vester's schedules(allocationId).
func (s *Server) readSchedule(ctx context.Context, vester common.Address, id string) (vesterState, error) {
	data, err := schedulesMethod.Inputs.Pack(id)
	if err != nil {
		return vesterState{}, fmt.Errorf("schedules of %s: %w", id, err)
	}
	out, err := s.chain.CallContract(ctx, ethereum.CallMsg{To: &vester, Data: append(schedulesMethod.ID, data...)}, nil)
	if err != nil {
		return vesterState{}, fmt.Errorf("schedules of %s on %s: %w", id, vester.Hex(), err)
	}
	values, err := schedulesMethod.Outputs.Unpack(out)
	if err != nil || len(values) != len(schedulesMethod.Outputs) {
		return vesterState{}, fmt.Errorf("schedules of %s on %s: %w", id, vester.Hex(), errScheduleAnswer)
	}
	to, ok1 := values[0].(common.Address)
	terminated, ok2 := values[1].(uint32)
	withdrawn, ok3 := values[2].(*big.Int)
	if !ok1 || !ok2 || !ok3 {
		return vesterState{}, fmt.Errorf("schedules of %s on %s: %w", id, vester.Hex(), errScheduleAnswer)
	}
	return vesterState{withdrawalAddress: to, terminated: terminated, withdrawn: withdrawn}, nil
}

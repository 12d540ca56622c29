package session

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/internal/sanitize"
	"allot/wallet"
)

// MaxBatch bounds the allocations one batch claims: each is a proof and a
// few chain reads in the review, and a multicall of them must fit a block.
const MaxBatch = 50

// Claimable is an allocation a batch may claim now, as the chain says.
type Claimable struct {
	ID        string
	Amount    *big.Int // base units, what withdraw(0) pays now
	Unit      string
	Recipient common.Address
}

// Skipped is an allocation left out of a batch, and why.
type Skipped struct {
	ID, Why string
	// Elsewhere: it was left out because its tokens go to another
	// holder than the one asked for; a page about that holder need not
	// name it.
	Elsewhere bool
	// Unread: it could not be read, so whose it is is not known either.
	Unread bool
}

// HolderCandidates are the allocations a claim of all of a holder's
// looks at (docs/deployment.md D19). The service lists no wallet's
// allocations, so allot looks at those it knows: on the embedded sandbox
// its demo allocations, then those followed (f, the profile's), each once;
// ClaimableOf keeps the holder's. err says why those followed with f could
// not be read; the others are there still.
func (s *Session) HolderCandidates(f Follows) ([]string, error) {
	var ids []string
	if fx := s.Fixtures; fx != nil {
		ids = append(slices.Clone(fx.AllocationIDs), fx.LifeAllocationIDs...)
	}
	followed, err := f.IDs()
	for _, id := range followed {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, err
}

// ClaimableOf reads each allocation of ids from the proof and the chain
// and keeps those with something to claim now, whose tokens go to holder
// when holder is not nil; the others are skipped, each with its reason.
func (s *Session) ClaimableOf(ctx context.Context, ids []string, holder *common.Address) ([]Claimable, []Skipped) {
	units := s.VesterUnits(ctx)
	var claim []Claimable
	var skipped []Skipped
	for _, id := range ids {
		v, err := s.CheckAllocation(ctx, id)
		if err != nil {
			skipped = append(skipped, Skipped{ID: id, Why: sanitize.Line(err.Error()), Unread: true})
			continue
		}
		if v.Args == nil || v.Standing == nil {
			skipped = append(skipped, Skipped{ID: id, Why: "its record on the vester could not be read", Unread: true})
			continue
		}
		to := v.Standing.Recipient(v.Args.Allocation.OriginalBeneficiary)
		if holder != nil && to != *holder {
			skipped = append(skipped, Skipped{ID: id, Why: "its tokens go to " + to.Hex(), Elsewhere: true})
			continue
		}
		unit := cmp.Or(units(v.Vester), "tokens")
		if o := v.ClaimOutlook(unit); o.Blocked != "" {
			skipped = append(skipped, Skipped{ID: id, Why: o.Blocked})
			continue
		}
		amount := v.Claimable()
		if amount == nil || amount.Sign() == 0 {
			skipped = append(skipped, Skipped{ID: id, Why: "nothing is claimable now"})
			continue
		}
		claim = append(claim, Claimable{ID: id, Amount: amount, Unit: unit, Recipient: to})
	}
	return claim, skipped
}

// ClaimBatch is the claims of several allocations for one sender, to be
// signed after one review (docs/deployment.md D19).
type ClaimBatch struct {
	// IDs are the allocations in the order the calls withdraw them.
	IDs   []string
	Calls []wallet.Call
	// Claims name, per call, the allocations it claims: one, or those of
	// a multicall.
	Claims [][]string
	// SelfBuilt are the allocations whose claim the service would not
	// build for the sender, which allot built itself from the proof.
	SelfBuilt []string
}

// Ops names each call for the journal: each is a claim.
func (b *ClaimBatch) Ops() []string {
	ops := make([]string, len(b.Calls))
	for i := range ops {
		ops[i] = "claim"
	}
	return ops
}

// BuildClaimBatch asks the service for the claim of each allocation of
// ids for sender (from the claimer's country, when not empty), journaled by rec as a claim alone is, or builds it
// itself where the service refuses the sender (SelfBuiltClaim); then it
// puts the withdraws of a vester whose claim fee, read from the chain, is
// 0 for each of them into one multicall, and leaves every other withdraw a
// transaction of its own. The signing policy checks all of it
// (ClaimBatchCheck). A failure names its allocation.
func (s *Session) BuildClaimBatch(ctx context.Context, rec *act.Recorder, ids []string, sender common.Address, country string) (*ClaimBatch, error) {
	if len(ids) == 0 || len(ids) > MaxBatch {
		return nil, fmt.Errorf("a batch claims 1 to %d allocations, not %d", MaxBatch, len(ids))
	}
	if err := s.NeedChain("a batch of claims"); err != nil {
		return nil, err
	}
	b := &ClaimBatch{}
	withdraws := make([]wallet.Call, len(ids))
	free := make([]bool, len(ids))
	for i, id := range ids {
		call, self, err := s.claimCall(ctx, rec, id, api.ClaimRequest{Sender: sender.Hex(), UserCountryCode: country})
		if err != nil {
			return nil, fmt.Errorf("allocation %s: %w", id, err)
		}
		if self {
			b.SelfBuilt = append(b.SelfBuilt, id)
		}
		fee, err := wallet.ClaimFee(ctx, s.Chain, call.To, id)
		if err != nil {
			return nil, fmt.Errorf("allocation %s: the claim fee: %w", id, err)
		}
		withdraws[i] = call
		free[i] = fee.Sign() == 0 && (call.Value == nil || call.Value.Sign() == 0)
	}
	// Each vester's withdraws in one multicall when none of them pays a
	// fee; in the order the vesters first come.
	done := make([]bool, len(ids))
	for i := range ids {
		if done[i] {
			continue
		}
		group := []int{i}
		for j := i + 1; j < len(ids); j++ {
			if !done[j] && withdraws[j].To == withdraws[i].To {
				group = append(group, j)
			}
		}
		allFree := true
		for _, j := range group {
			allFree = allFree && free[j]
		}
		if !allFree || len(group) == 1 {
			done[i] = true
			b.add(withdraws[i], ids[i])
			continue
		}
		calls := make([]wallet.Call, len(group))
		claims := make([]string, len(group))
		for k, j := range group {
			done[j] = true
			calls[k], claims[k] = withdraws[j], ids[j]
		}
		m, err := wallet.Multicall(calls)
		if err != nil {
			return nil, err
		}
		b.add(m, claims...)
	}
	return b, nil
}

func (b *ClaimBatch) add(call wallet.Call, ids ...string) {
	b.Calls = append(b.Calls, call)
	b.Claims = append(b.Claims, ids)
	b.IDs = append(b.IDs, ids...)
}

// claimCall is the one withdraw of allocation id that req asks for: the
// service's, or allot's own when the service refuses the sender (self
// reports which).
func (s *Session) claimCall(ctx context.Context, rec *act.Recorder, id string, req api.ClaimRequest) (call wallet.Call, self bool, err error) {
	var calls []wallet.Call
	res, err := rec.RequestClaim(ctx, s.API, id, req)
	switch {
	case err != nil && SenderRefused(err):
		refused := err
		if calls, err = s.SelfBuiltClaim(ctx, id, common.HexToAddress(req.Sender), nil); err != nil {
			return wallet.Call{}, false, fmt.Errorf("%w; allot did not build it either: %w", refused, err)
		}
		self = true
	case err != nil:
		return wallet.Call{}, false, err
	default:
		if calls, err = wallet.ClaimCalls(res); err != nil {
			return wallet.Call{}, false, err
		}
	}
	if len(calls) != 1 {
		return wallet.Call{}, false, fmt.Errorf("the claim holds %d calls; a batch takes one withdraw of each allocation", len(calls))
	}
	return calls[0], self, nil
}

// ClaimBatchCheck is ClaimCheck for a batch of the allocations ids, in
// the order the calls withdraw them, each asking for all that is
// claimable: a ClaimPolicy each, and wallet.CheckClaimBatch.
func (s *Session) ClaimBatchCheck(ids []string, signer common.Address) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		policies := make([]wallet.ClaimPolicy, len(ids))
		for i, id := range ids {
			p, err := s.ClaimPolicy(ctx, pins, id, signer, nil)
			if err != nil {
				return nil, fmt.Errorf("allocation %s: %w", id, err)
			}
			policies[i] = p
		}
		return wallet.CheckClaimBatch(ctx, s.Chain, policies, calls)
	}
}

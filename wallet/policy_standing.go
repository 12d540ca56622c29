package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// The claim side of the signing policy that rests on the allocation's life
// on the vester (D18): where the tokens go, what a withdraw can pay, and a
// claim through a post-claim handler.

// establishStanding reads the allocation's record on the vester at the
// chain's head and what a claim pays there; it refuses a revoked
// allocation and one the vester cannot pay out, and says where the tokens
// go.
func establishStanding(ctx context.Context, node Node, p ClaimPolicy, f *claimFacts, refused *RefusedError, a *Approval) {
	head, err := node.HeaderByNumber(ctx, nil)
	if err != nil {
		refused.unchecked("the chain's time could not be read, so what is vested is unknown: %v", err)
		return
	}
	at := time.Unix(int64(head.Time), 0).UTC()
	s, err := ReadStanding(ctx, node, f.vester, p.AllocationID)
	switch {
	case errors.Is(err, ErrNoSchedules):
		refused.unchecked("the vester %s does not answer schedules(allocationId): what was withdrawn, where the tokens go and whether the allocation was cancelled are unknown", f.vester.Hex())
		return
	case err != nil:
		refused.unchecked("the allocation's record on the vester could not be read: %v", err)
		return
	}
	f.standing = s
	beneficiary := f.args.Allocation.OriginalBeneficiary
	a.Facts = append(a.Facts, Line{"tokens go to", recipientFact(s, beneficiary, p.Signer)})

	payout := s.Payout(f.args, at)
	switch {
	case s.Revoked():
		refused.refuse("the allocation was revoked on the vester: nothing of it vests, and a withdraw can only revert")
		return
	case payout.Unclaimable != nil:
		refused.refuse("%v", payout.Unclaimable)
		return
	}
	f.payout = &payout
	f.claimable = payout.Withdrawable
	state := "active"
	if cancelled, ok := s.CancelledAt(); ok {
		state = "cancelled at " + FactTime(cancelled) + ": vesting stopped then"
	}
	a.Facts = append(a.Facts,
		Line{"state", state},
		Line{"claimable", fmt.Sprintf("%s %s: %s vested at %s, %s withdrawn, the vester holds %s %s",
			FormatTokens(payout.Withdrawable), f.unit, FormatTokens(payout.Vested), FactTime(payout.VestedAt),
			FormatTokens(s.Withdrawn), FormatTokens(s.VesterBalance), f.unit)})
	if payout.Underfunded() {
		a.Facts = append(a.Facts, Line{"underfunded", fmt.Sprintf("the vester holds %s %s, less than the %s vested and not withdrawn: a claim pays at most what it holds",
			FormatTokens(s.VesterBalance), f.unit, FormatTokens(payout.Owed))})
	}
}

// recipientFact says where the tokens of a claim go, and how that differs
// from the leaf's beneficiary and from the signer. When the withdrawal
// address was changed, since when is in the allocation's history.
func recipientFact(s *Standing, beneficiary, signer common.Address) string {
	to := s.Recipient(beneficiary)
	out := to.Hex()
	switch {
	case s.Transferred(beneficiary):
		out += ", the withdrawal address the vester holds: NOT the leaf's beneficiary " + beneficiary.Hex() + " (the allocation was transferred)"
	default:
		out += ", the leaf's beneficiary"
	}
	if to != signer {
		out += "; NOT the signer " + signer.Hex()
	}
	return out
}

// checkAmount holds the amount withdraw call i asks for to what the vester
// can pay.
func checkAmount(refused *RefusedError, i int, amount *big.Int, f *claimFacts) {
	switch {
	case f.claimable == nil:
	case amount.Sign() == 0 && f.claimable.Sign() == 0 && f.payout != nil && f.payout.Owed.Sign() > 0:
		refused.refuse("call %d withdraws everything vested, and the vester holds no tokens to pay it (%s are owed)", i+1, FormatTokens(f.payout.Owed))
	case amount.Sign() == 0 && f.claimable.Sign() == 0:
		refused.refuse("call %d withdraws everything vested, and nothing is claimable now", i+1)
	case amount.Cmp(f.claimable) <= 0:
	case f.payout != nil && amount.Cmp(f.payout.Owed) <= 0:
		refused.refuse("call %d withdraws %s %s; the vester holds only %s, too few to pay it", i+1, FormatTokens(amount), f.unit, FormatTokens(f.standing.VesterBalance))
	default:
		refused.refuse("call %d withdraws %s %s; %s are claimable now", i+1, FormatTokens(amount), f.unit, FormatTokens(f.claimable))
	}
}

// checkRoute holds where withdraw call i sends the tokens: straight to
// the withdrawal address (the first withdraw, or the second with handler
// 0), only when the vester whitelists the direct claim; to a post-claim
// handler contract (the second withdraw, D18), not to a wallet, only for a
// handler on the vester's whitelist that the profile pins with the code it
// had when pinned, as every contract a claim trusts: no pinned handler
// means direct claims only. The review says where the tokens go.
func checkRoute(ctx context.Context, node Node, refused *RefusedError, a *Approval, i int, values []any, p ClaimPolicy, f *claimFacts) {
	var handler common.Address
	if len(values) == 6 {
		handler, _ = values[4].(common.Address)
	}
	if handler == (common.Address{}) {
		if f.standing != nil && !f.standing.DirectClaim() {
			refused.refuse("call %d claims straight to the withdrawal address; this vester pays only through its post-claim handlers %s, so it would revert",
				i+1, addressList(f.standing.ViaHandlers()))
		}
		return
	}
	through := Line{"tokens go to", fmt.Sprintf("handler contract %s, not to your wallet: the vester pays the handler and calls it with the claim", handler.Hex())}
	through.Value += checkPinned(ctx, node, refused, PinHandler, handler, p.Pins, "post-claim handler")
	if at := slices.IndexFunc(a.Facts, func(l Line) bool { return l.Label == through.Label }); at >= 0 {
		a.Facts[at] = through
	} else {
		a.Facts = append(a.Facts, through)
	}
	if f.standing != nil && !slices.Contains(f.standing.Handlers, handler) {
		refused.refuse("call %d sends the tokens to handler contract %s, which is not on the vester's whitelist of post-claim handlers", i+1, handler.Hex())
	}
}

// addressList writes addresses for a sentence, the first few of a list
// read from the chain (of any length); "(none)" when there are none.
func addressList(addrs []common.Address) string {
	const most = 3
	if len(addrs) == 0 {
		return "(none)"
	}
	var out []string
	for _, a := range addrs[:min(len(addrs), most)] {
		out = append(out, a.Hex())
	}
	if len(addrs) > most {
		out = append(out, fmt.Sprintf("and %d more", len(addrs)-most))
	}
	return strings.Join(out, ", ")
}

// PostClaimHandlers reads the vester's whitelist of post-claim handlers
// (getPostClaimHandlers); address 0 in it is the direct transfer.
func PostClaimHandlers(ctx context.Context, caller ethereum.ContractCaller, vester common.Address) ([]common.Address, error) {
	return view[[]common.Address](ctx, caller, vesterABI, vester, "getPostClaimHandlers")
}

// FactTime writes a time in a review's facts and notes as the screens
// write times: "2026-11-28 11:22 UTC".
func FactTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

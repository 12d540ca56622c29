package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/wallet/vesterabi"
)

// A batch of claims (D19): the claims of several allocations, signed after
// one review. The vester is OpenZeppelin's Multicall, whose
// multicall(bytes[]) is not payable: withdraws go in one transaction only
// when each one's claim fee is 0 (no fee, or a pay-once fee paid before);
// otherwise each is a transaction of its own, on consecutive nonces.

// Multicall packs withdraws of one vester, from one sender, into one call
// of the vester's multicall(bytes[]), which sends no ether: only for
// claims whose fee is 0, which CheckClaimBatch holds it to.
func Multicall(calls []Call) (Call, error) {
	if len(calls) == 0 {
		return Call{}, errors.New("multicall: no calls")
	}
	first := calls[0]
	data := make([][]byte, len(calls))
	for i, c := range calls {
		switch {
		case c.To != first.To:
			return Call{}, fmt.Errorf("multicall: call %d goes to %s, not to %s: a multicall calls one vester", i+1, c.To.Hex(), first.To.Hex())
		case c.From != first.From || c.ChainID != first.ChainID:
			return Call{}, fmt.Errorf("multicall: call %d is for another sender or chain", i+1)
		case c.Value != nil && c.Value.Sign() != 0:
			return Call{}, fmt.Errorf("multicall: call %d sends %s ether; a multicall sends none", i+1, FormatUnits(c.Value))
		}
		data[i] = c.Data
	}
	packed, err := vesterABI.Pack(vesterabi.Multicall, data)
	if err != nil {
		return Call{}, fmt.Errorf("multicall: %w", err)
	}
	return Call{ChainID: first.ChainID, From: first.From, To: first.To, Data: packed, Value: new(big.Int)}, nil
}

// multicallData is the calldata of each call a vester multicall makes;
// ok is false when data is not a multicall allot can decode.
func multicallData(data []byte) ([][]byte, bool) {
	m, values, ok := decodeKnown(data)
	if !ok || m.method.RawName != vesterabi.Multicall {
		return nil, false
	}
	inner, ok := values[0].([][]byte)
	return inner, ok
}

// batchClaim is one allocation's claim in a batch, as the review says it.
type batchClaim struct {
	id, where string
	amount    *big.Int // what it withdraws; nil when not established
	unit      string
	fee       *big.Int // nil when not read
	to        string   // where the tokens go, in words
}

// CheckClaimBatch applies the signing policy to the calls of a batch of
// claims, one ClaimPolicy per allocation, each asking for all that is
// claimable, in the order the calls withdraw them. A call is either a
// withdraw, held to its allocation's policy exactly as CheckClaim holds a
// claim alone, or a multicall(bytes[]) to a pinned vester, sending
// nothing, each of whose calls is such a withdraw of the same vester whose
// claim fee the chain states is 0. Anything else in a multicall (another
// function, a multicall in a multicall, a withdraw with a fee) is refused
// with its reason, as is an allocation asked twice or not withdrawn.
// The approval's facts say each claim (allocation, amount, where it pays,
// its fee) and the total.
func CheckClaimBatch(ctx context.Context, node Node, claims []ClaimPolicy, calls []Call) (*Approval, error) {
	refused := &RefusedError{Subject: fmt.Sprintf("claim of %d allocations", len(claims))}
	a := &Approval{Subject: refused.Subject}
	if len(claims) == 0 {
		refused.refuse("a batch claims at least one allocation")
		return nil, refused
	}
	calls = withValues(calls)
	seen := map[string]bool{}
	for _, p := range claims {
		if seen[p.AllocationID] {
			refused.refuse("allocation %s is asked twice: a batch claims each allocation once", sanitize.Truncate(p.AllocationID, 60))
		}
		seen[p.AllocationID] = true
	}
	var done []batchClaim
	next := func(where string) (ClaimPolicy, bool) {
		if len(done) >= len(claims) {
			refused.refuse("%s withdraws for more allocations than the %d asked", where, len(claims))
			return ClaimPolicy{}, false
		}
		return claims[len(done)], true
	}
	for i, c := range calls {
		where := fmt.Sprintf("call %d", i+1)
		inner, multi := multicallData(c.Data)
		if !multi {
			if p, ok := next(where); ok {
				done = append(done, checkBatchClaim(ctx, node, refused, a, p, c, where, false))
			}
			continue
		}
		p := claims[0]
		checkCommon(refused, a, i, c, p.Signer, p.ChainID, p.Pins)
		if c.Value.Sign() != 0 {
			refused.refuse("%s is a multicall sending %s ether: a multicall is not payable and sends none", where, FormatUnits(c.Value))
		}
		for j, data := range inner {
			where := fmt.Sprintf("call %d.%d", i+1, j+1)
			p, ok := next(where)
			if !ok {
				break
			}
			if _, nested := multicallData(data); nested {
				refused.refuse("%s is a multicall inside a multicall: a batch signs only withdraws in one", where)
				done = append(done, batchClaim{id: p.AllocationID, where: where})
				continue
			}
			sub := Call{ChainID: c.ChainID, From: c.From, To: c.To, Data: data, Value: new(big.Int)}
			done = append(done, checkBatchClaim(ctx, node, refused, a, p, sub, where, true))
		}
	}
	if len(done) < len(claims) {
		refused.refuse("the calls withdraw for %d of the %d allocations asked", len(done), len(claims))
	}
	if err := refused.err(); err != nil {
		return nil, err
	}
	a.Facts = append(a.Facts, batchLines(done)...)
	a.calls = slices.Clone(calls)
	return a, nil
}

// checkBatchClaim holds call c, at where in the batch, to the policy of
// its allocation, as CheckClaim would alone; in a multicall its claim fee
// must be 0. Refusals are refused's, named by the allocation; facts go to
// a's, named the same way.
func checkBatchClaim(ctx context.Context, node Node, refused *RefusedError, a *Approval, p ClaimPolicy, c Call, where string, inMulticall bool) batchClaim {
	id := sanitize.Truncate(p.AllocationID, 60)
	claim := batchClaim{id: id, where: where}
	one, facts, err := checkClaim(ctx, node, p, []Call{c})
	var r *RefusedError
	switch {
	case errors.As(err, &r):
		for _, reason := range r.Reasons {
			refused.Reasons = append(refused.Reasons, fmt.Sprintf("allocation %s (%s): %s", id, where, reason))
		}
		refused.Unchecked = refused.Unchecked || r.Unchecked
		refused.pinReasons += r.pinReasons
		for _, u := range r.Unpinned {
			if !slices.Contains(refused.Unpinned, u) {
				refused.Unpinned = append(refused.Unpinned, u)
			}
		}
	case err != nil:
		refused.unchecked("allocation %s (%s): %v", id, where, err)
	}
	if facts == nil {
		return claim
	}
	claim.unit, claim.fee = facts.unit, facts.fee
	if inMulticall && facts.fee != nil && facts.fee.Sign() != 0 {
		refused.refuse("allocation %s (%s): its claim fee is %s ether as the chain states; a multicall sends none, so its withdraw must be a transaction of its own",
			id, where, FormatUnits(facts.fee))
	}
	if _, values, ok := decodeKnown(c.Data); ok && len(values) >= 4 {
		claim.amount, _ = values[0].(*big.Int)
		if claim.amount != nil && claim.amount.Sign() == 0 {
			claim.amount = facts.claimable
		}
		if len(values) == 6 {
			if handler, _ := values[4].(common.Address); handler != (common.Address{}) {
				claim.to = "handler " + handler.Hex()
			}
		}
	}
	if claim.to == "" && facts.standing != nil && node != nil {
		to := facts.standing.Recipient(facts.args.Allocation.OriginalBeneficiary)
		claim.to = to.Hex() + ", " + holderKind(ctx, node, to)
	}
	if one != nil {
		for _, l := range one.Facts {
			a.Facts = append(a.Facts, Line{shortID(id) + " " + l.Label, l.Value})
		}
	}
	return claim
}

// batchLines say each claim of a batch in one line, then the total of
// each token and of the fees.
func batchLines(claims []batchClaim) []Line {
	var lines []Line
	totals := map[string]*big.Int{}
	var units []string
	fees := new(big.Int)
	for i, c := range claims {
		amount := "what is claimable"
		if c.amount != nil {
			amount = FormatTokens(c.amount) + " " + c.unit
			if totals[c.unit] == nil {
				totals[c.unit] = new(big.Int)
				units = append(units, c.unit)
			}
			totals[c.unit].Add(totals[c.unit], c.amount)
		}
		fee := "fee not read"
		if c.fee != nil {
			fee = "fee " + FormatUnits(c.fee) + " ether"
			fees.Add(fees, c.fee)
		}
		lines = append(lines, Line{fmt.Sprintf("claim %d of %d", i+1, len(claims)),
			fmt.Sprintf("allocation %s (%s): %s to %s; %s", c.id, c.where, amount, c.to, fee)})
	}
	var sums []string
	for _, u := range units {
		sums = append(sums, FormatTokens(totals[u])+" "+u)
	}
	from := fmt.Sprintf("%d allocations", len(claims))
	if len(claims) == 1 {
		from = "1 allocation"
	}
	lines = append(lines, Line{"total", fmt.Sprintf("%s from %s; you pay %s ether in claim fees, and the gas",
		strings.Join(sums, " and "), from, FormatUnits(fees))})
	return lines
}

// shortID is an allocation id cut to its first 8 characters, to name a
// claim's facts in a batch's review.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

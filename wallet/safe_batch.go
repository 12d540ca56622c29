package wallet

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// A batch of a Safe's acts: several claims, stakes and transfers made in
// one Safe transaction through the MultiSendCallOnly. Each act is held to
// the policy it meets alone, so a batch signs nothing a single act could
// not; and since each is checked against the chain as it is before the
// batch, acts that would change what another was checked against (two of
// one allocation, two stakes in one pool) are refused.

// ActCalls is one act of a batch and the calls that make it, in order.
type ActCalls struct {
	SafeAct
	Calls []Call
}

// String names the act in a few words, for a review.
func (a ActCalls) String() string {
	switch a.Op {
	case "stake":
		return fmt.Sprintf("a stake of %s tokens in %s", FormatTokens(a.Amount), a.Pool.Hex())
	case "transfer":
		return fmt.Sprintf("a transfer of allocation %s to %s", a.Allocation, a.To.Hex())
	}
	if a.Amount == nil {
		return fmt.Sprintf("a claim of all that is claimable of allocation %s", a.Allocation)
	}
	return fmt.Sprintf("a claim of %s tokens of allocation %s", FormatTokens(a.Amount), a.Allocation)
}

// SplitSafeCalls cuts a batch's calls into the acts they make, from their
// calldata alone (ClassifySafeCalls): an approve with the stake after it,
// a stake, a withdraw, a transfer of beneficiary. A call that starts no
// act allot knows refuses the whole batch.
func SplitSafeCalls(calls []Call) ([]ActCalls, error) {
	var out []ActCalls
	for i := 0; i < len(calls); {
		n := 1
		if m, _, ok := decodeKnown(calls[i].Data); ok && m.method.RawName == "approve" && i+1 < len(calls) {
			n = 2
		}
		act, err := ClassifySafeCalls(calls[i : i+n])
		if err != nil {
			return nil, fmt.Errorf("the batch's call %d: %w", i+1, err)
		}
		out = append(out, ActCalls{SafeAct: act, Calls: slices.Clone(calls[i : i+n])})
		i += n
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no calls: %w", ErrUnknownAct)
	}
	return out, nil
}

// CheckBatch approves a batch when every act passes check, the policy of
// that act alone, and no two acts are of one allocation or one pool: one
// Approval of all the calls in order, whose facts are each act's under
// its name, then the batch's totals. Anything else is a *RefusedError
// with every reason of every act.
func CheckBatch(acts []ActCalls, check func(ActCalls) (*Approval, error)) (*Approval, error) {
	refused := &RefusedError{Subject: fmt.Sprintf("batch of %d acts", len(acts))}
	a := &Approval{Subject: refused.Subject}
	seen := map[string]int{}
	for i, act := range acts {
		name := fmt.Sprintf("act %d", i+1)
		key := act.Allocation
		if act.Op == "stake" {
			key = "pool " + act.Pool.Hex()
		}
		if j, ok := seen[key]; ok {
			refused.refuse("%s (%s) is of the same allocation or pool as act %d: each act is checked against the chain before the batch, so two of one would each change what the other was checked against; make them two transactions", name, act, j+1)
		}
		seen[key] = i
		ap, err := check(act)
		var r *RefusedError
		switch {
		case errors.As(err, &r):
			for _, reason := range r.Reasons {
				refused.refuse("%s (%s): %s", name, act, reason)
			}
			refused.Unchecked = refused.Unchecked || r.Unchecked
			refused.Unpinned = append(refused.Unpinned, r.Unpinned...)
		case err != nil:
			return nil, fmt.Errorf("%s (%s): %w", name, act, err)
		default:
			a.Facts = append(a.Facts, Line{name, act.String() + ": passes the policy it meets alone"})
			for _, l := range ap.Facts {
				a.Facts = append(a.Facts, Line{"  " + l.Label, l.Value})
			}
			a.calls = append(a.calls, ap.calls...)
		}
	}
	if err := refused.err(); err != nil {
		return nil, err
	}
	a.Facts = append(a.Facts, Line{"batch", BatchTotals(acts)})
	return a, nil
}

// BatchTotals says what a batch does in all: its acts by kind, the
// tokens its stakes and its claims of an amount move, and the ether its
// calls send (the claims' and stakes' fees).
func BatchTotals(acts []ActCalls) string {
	var claims, stakes, transfers, all int
	staked, claimed, sent := new(big.Int), new(big.Int), new(big.Int)
	for _, act := range acts {
		for _, c := range act.Calls {
			if c.Value != nil {
				sent.Add(sent, c.Value)
			}
		}
		switch act.Op {
		case "stake":
			stakes++
			staked.Add(staked, act.Amount)
		case "transfer":
			transfers++
		default:
			claims++
			if act.Amount == nil {
				all++
			} else {
				claimed.Add(claimed, act.Amount)
			}
		}
	}
	parts := []string{fmt.Sprintf("%d acts in one Safe transaction", len(acts))}
	if claims > 0 {
		part := fmt.Sprintf("%d claim(s)", claims)
		if claimed.Sign() > 0 {
			part += fmt.Sprintf(" of %s tokens", FormatTokens(claimed))
		}
		if all > 0 {
			part += fmt.Sprintf(", %d of all that is claimable", all)
		}
		parts = append(parts, part)
	}
	if stakes > 0 {
		parts = append(parts, fmt.Sprintf("%d stake(s) of %s tokens in all", stakes, FormatTokens(staked)))
	}
	if transfers > 0 {
		parts = append(parts, fmt.Sprintf("%d transfer(s) of beneficiary", transfers))
	}
	parts = append(parts, fmt.Sprintf("%s ether sent in all (fees)", FormatUnits(sent)))
	return strings.Join(parts, "; ")
}

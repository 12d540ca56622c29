package onchain

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/chain"
	"allot/wallet"
)

// TestSeededLivesOnTheChain: the deployment leaves each fixture allocation
// in the state the fixtures name, on the vester itself (schedules, balance,
// handler whitelist); and for each, the sandbox's claim answer is what the
// vester pays, to the wei: its calldata succeeds in an eth_call from the
// sender, and one wei more reverts InsufficientFunds.
func TestSeededLivesOnTheChain(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	c := h.sb.Chain
	now, err := c.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range h.sb.world.FixtureAllocations {
		state := h.fx.AllocationStates[a.ID]
		seen[state] = true
		d := a.Distribution()
		vester := h.sb.addrs[d.ContractID]
		s, err := c.Schedule(ctx, vester, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		recipient := a.Beneficiary()
		switch state {
		case sandbox.StateActive, sandbox.StateUnderfunded, sandbox.StateThroughHandler:
			if s.TerminatedTimestamp != 0 || s.Withdrawn.Sign() != 0 || s.WithdrawalAddress != (common.Address{}) {
				t.Errorf("%s allocation %s: %+v, want untouched", state, a.ID, s)
			}
		case sandbox.StateClaimedInPart:
			if s.Withdrawn.Cmp(a.Life.Claimed) != 0 || s.Withdrawn.Sign() == 0 || s.TerminatedTimestamp != 0 {
				t.Errorf("claimed in part: %+v, want %s withdrawn and active", s, a.Life.Claimed)
			}
		case sandbox.StateCancelled:
			if s.TerminatedTimestamp <= chain.Revoked || int64(s.TerminatedTimestamp) > now.Unix() {
				t.Errorf("cancelled: terminatedTimestamp %d, want the deployment's time", s.TerminatedTimestamp)
			}
		case sandbox.StateRevoked:
			if s.TerminatedTimestamp != chain.Revoked || s.Withdrawn.Cmp(a.Life.Claimed) != 0 {
				t.Errorf("revoked: %+v, want revoked after %s withdrawn", s, a.Life.Claimed)
			}
		case sandbox.StateTransferred:
			if s.WithdrawalAddress != a.Life.TransferTo {
				t.Errorf("transferred: withdrawal address %s, want %s", s.WithdrawalAddress, a.Life.TransferTo)
			}
			recipient = a.Life.TransferTo
		default:
			t.Errorf("allocation %s has no state in the fixtures (%q)", a.ID, state)
		}
		if state == sandbox.StateUnderfunded {
			held, err := c.BalanceOf(ctx, h.sb.addrs[d.TokenID], vester)
			if err != nil || held.Cmp(a.Args.Unlocked(now)) >= 0 {
				t.Errorf("underfunded: the vester holds %s (%v), want less than the %s vested", held, err, a.Args.Unlocked(now))
			}
		}
		if state == sandbox.StateThroughHandler {
			handlers, err := c.PostClaimHandlers(ctx, vester)
			if err != nil || len(handlers) != 1 || handlers[0] != h.sb.addrs[d.Handler.ID] {
				t.Errorf("through a handler: the whitelist is %v (%v), want only the vault", handlers, err)
			}
		}
		t.Run(state, func(t *testing.T) { h.claimPaysAsTheVester(t, a, recipient) })
	}
	for _, state := range []string{sandbox.StateClaimedInPart, sandbox.StateCancelled, sandbox.StateRevoked,
		sandbox.StateTransferred, sandbox.StateUnderfunded, sandbox.StateThroughHandler} {
		if !seen[state] {
			t.Errorf("no fixture allocation is %s", state)
		}
	}
}

// claimPaysAsTheVester asks the sandbox for the claim of a, sent by
// sender, and checks it against an eth_call of the vester.
func (h *harness) claimPaysAsTheVester(t *testing.T, a *sandbox.Allocation, sender common.Address) {
	ctx := context.Background()
	node := h.sb.Chain.Client()
	res, err := h.client.Claim(ctx, a.ID, api.ClaimRequest{Sender: sender.Hex()})
	if h.fx.AllocationStates[a.ID] == sandbox.StateRevoked {
		var ve *api.ValidationError
		if !errors.As(err, &ve) || !ve.Remote {
			t.Fatalf("claim of a revoked allocation: %v, want a 400", err)
		}
		// The vester agrees: nothing to take (production underflows, as
		// part was claimed before the revoke).
		data, _ := chain.PackWithdraw(new(big.Int), a.RootIndex, a.DecodableArgs, mustProof(t, a))
		d := a.Distribution()
		_, err := node.CallContract(ctx, callMsg(sender, wallet.Call{To: h.sb.addrs[d.ContractID], Data: data, Value: d.ClaimFee}), nil)
		wantRevertName(t, err, "Panic")
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	calls, err := wallet.ClaimCalls(res)
	if err != nil || len(calls) != 1 {
		t.Fatalf("claim calls %v, %v", calls, err)
	}
	call := calls[0]
	if _, err := node.CallContract(ctx, callMsg(sender, call), nil); err != nil {
		t.Fatalf("the vester refuses the sandbox's claim: %v", err)
	}
	amount := new(big.Int).SetBytes(call.Data[4:36])
	more := call
	more.Data = bytes.Clone(call.Data)
	new(big.Int).Add(amount, big.NewInt(1)).FillBytes(more.Data[4:36])
	_, err = node.CallContract(ctx, callMsg(sender, more), nil)
	wantRevertName(t, err, "InsufficientFunds")
	if a.Distribution().Handler != nil {
		handler := common.BytesToAddress(call.Data[4+4*32 : 4+5*32])
		if handler != h.sb.addrs[a.Distribution().Handler.ID] {
			t.Errorf("claims through %s, want the distribution's vault", handler)
		}
	}
}

func mustProof(t *testing.T, a *sandbox.Allocation) []common.Hash {
	t.Helper()
	proof, err := a.Proof()
	if err != nil {
		t.Fatal(err)
	}
	return proof
}

func wantRevertName(t *testing.T, err error, name string) {
	t.Helper()
	data, ok := chain.RevertData(err)
	if !ok {
		t.Fatalf("%v, want a revert with %s", err, name)
	}
	r, err := chain.DecodeRevert(data)
	if err != nil || r.Name != name {
		t.Errorf("reverted with %v (%v), want %s", r, err, name)
	}
}

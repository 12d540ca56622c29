package sandbox

import (
	"bytes"
	"encoding/json"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// withdrawThroughABI is the vester's second withdraw as D18 writes it,
// parsed from JSON rather than shared with the sandbox's declaration.
const withdrawThroughABI = `[{"type":"function","name":"withdraw","stateMutability":"payable","outputs":[],"inputs":[
	{"name":"withdrawalAmount","type":"uint256"},{"name":"rootIndex","type":"uint32"},
	{"name":"decodableArgs","type":"bytes"},{"name":"proof","type":"bytes32[]"},
	{"name":"postClaimHandler","type":"address"},{"name":"extraData","type":"bytes"}]}]`

// decodeWithdrawThrough decodes the second withdraw's calldata: its
// amount and handler.
func decodeWithdrawThrough(t *testing.T, data string) (*big.Int, common.Address) {
	t.Helper()
	parsed, err := abi.JSON(strings.NewReader(withdrawThroughABI))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := hexutil.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	selector := crypto.Keccak256([]byte("withdraw(uint256,uint32,bytes,bytes32[],address,bytes)"))[:4]
	if !bytes.Equal(raw[:4], selector) {
		t.Fatalf("selector %x, want the withdraw through a handler's %x", raw[:4], selector)
	}
	values, err := parsed.Methods["withdraw"].Inputs.Unpack(raw[4:])
	if err != nil {
		t.Fatal(err)
	}
	return values[0].(*big.Int), values[4].(common.Address)
}

// lifeAllocation returns the fixture allocation the seed left in state.
func lifeAllocation(t *testing.T, e *env, state string) *Allocation {
	t.Helper()
	for _, id := range e.fx.LifeAllocationIDs {
		if e.fx.AllocationStates[id] == state {
			a, _ := e.srv.World().Allocation(id)
			return a
		}
	}
	t.Fatalf("no fixture allocation is %s", state)
	return nil
}

// claimData asks the claim of a and returns its instruction's calldata.
func (e *env) claimData(t *testing.T, a *Allocation, sender common.Address, body obj) string {
	t.Helper()
	if body == nil {
		body = obj{}
	}
	body["sender"] = sender.Hex()
	var c claimBody
	e.claim(a.ID, body).result(t, &c)
	return c.Parameters[0].Instructions[0].Data
}

func TestFixturesNameEveryState(t *testing.T) {
	e := newEnv(t, Options{})
	if len(e.fx.AllocationStates) != len(e.fx.AllocationIDs)+len(e.fx.LifeAllocationIDs) {
		t.Errorf("%d states for %d+%d allocations", len(e.fx.AllocationStates), len(e.fx.AllocationIDs), len(e.fx.LifeAllocationIDs))
	}
	// AllocationIDs stay plain allocations, as before there were lives.
	for i, id := range e.fx.AllocationIDs {
		if e.fx.AllocationStates[id] != StateActive {
			t.Errorf("allocation %d is %s, want %s", i, e.fx.AllocationStates[id], StateActive)
		}
	}
	want := []string{StateClaimedInPart, StateCancelled, StateRevoked, StateTransferred, StateUnderfunded, StateThroughHandler}
	var got []string
	for _, id := range e.fx.LifeAllocationIDs {
		got = append(got, e.fx.AllocationStates[id])
	}
	if !slices.Equal(got, want) {
		t.Errorf("the life allocations are %v, want %v", got, want)
	}
	// Each state's allocation belongs to a demo wallet, and the transfer
	// goes to another one.
	demo := map[common.Address]bool{}
	for _, w := range e.fx.Wallets {
		demo[common.HexToAddress(w.Address)] = true
	}
	for _, a := range e.srv.World().FixtureAllocations {
		if !demo[a.Beneficiary()] {
			t.Errorf("allocation %s belongs to %s, not a demo wallet", a.ID, a.Beneficiary())
		}
	}
	moved := lifeAllocation(t, e, StateTransferred)
	if to := moved.Life.TransferTo; !demo[to] || to == moved.Beneficiary() {
		t.Errorf("transferred to %s, want another demo wallet", to)
	}
}

// TestClaimOfEachSeededState: without a chain, the sandbox holds each
// allocation's life as done at the world's start, and answers its claim
// as the production vester would pay it (D18).
func TestClaimOfEachSeededState(t *testing.T) {
	e := newEnv(t, Options{})
	start := e.srv.World().Start

	t.Run("claimed in part", func(t *testing.T) {
		a := lifeAllocation(t, e, StateClaimedInPart)
		vested := a.Args.Unlocked(testStart)
		claimed := ppmOf(a.Args.Unlocked(start), 400_000)
		got := decodeWithdraw(t, e.claimData(t, a, a.Beneficiary(), nil)).Amount
		if want := new(big.Int).Sub(vested, claimed); got.Cmp(want) != 0 {
			t.Errorf("claimable %s, want %s vested less %s claimed", got, want, claimed)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		a := lifeAllocation(t, e, StateCancelled)
		atCancel := a.Args.Unlocked(start)
		e.clock.Advance(90 * 24 * time.Hour)
		defer e.clock.Advance(-90 * 24 * time.Hour)
		if later := a.Args.Unlocked(testStart.Add(90 * 24 * time.Hour)); later.Cmp(atCancel) <= 0 {
			t.Fatal("the schedule vests nothing more in 90 days: the test shows nothing")
		}
		got := decodeWithdraw(t, e.claimData(t, a, a.Beneficiary(), nil)).Amount
		if got.Cmp(atCancel) != 0 {
			t.Errorf("claimable %s 90 days after the cancel, want what vested until it: %s", got, atCancel)
		}
	})
	t.Run("revoked", func(t *testing.T) {
		a := lifeAllocation(t, e, StateRevoked)
		r := e.claim(a.ID, obj{"sender": a.Beneficiary().Hex()})
		r.wantAdminError(t, http.StatusBadRequest, kindValidation, "amount")
		if !strings.Contains(string(r.body), "revoked") {
			t.Errorf("refusal %s does not say the allocation was revoked", r.body)
		}
		e.claim(a.ID, obj{"sender": a.Beneficiary().Hex(), "amount": 1}).wantAdminError(t, http.StatusBadRequest, kindValidation, "amount")
	})
	t.Run("transferred", func(t *testing.T) {
		a := lifeAllocation(t, e, StateTransferred)
		// The new withdrawal address may ask, so may the beneficiary, and
		// so may a third wallet: anyone may send a withdraw (D19).
		e.claimData(t, a, a.Life.TransferTo, nil)
		e.claimData(t, a, a.Beneficiary(), nil)
		for _, w := range e.srv.World().Wallets {
			if w.Address != a.Beneficiary() && w.Address != a.Life.TransferTo {
				e.claimData(t, a, w.Address, nil)
				break
			}
		}
	})
	t.Run("underfunded", func(t *testing.T) {
		a := lifeAllocation(t, e, StateUnderfunded)
		d := a.Distribution()
		if a.Args.Unlocked(testStart).Cmp(d.Funded) <= 0 {
			t.Fatalf("the vester holds %s, no less than the %s vested", d.Funded, a.Args.Unlocked(testStart))
		}
		got := decodeWithdraw(t, e.claimData(t, a, a.Beneficiary(), nil)).Amount
		if got.Cmp(d.Funded) != 0 {
			t.Errorf("claimable %s, want all the vester holds: %s", got, d.Funded)
		}
		more := formatUnits(new(big.Int).Add(d.Funded, big.NewInt(1)))
		r := e.claim(a.ID, obj{"sender": a.Beneficiary().Hex(), "amount": json.Number(more)})
		r.wantAdminError(t, http.StatusBadRequest, kindValidation, "amount")
		if !strings.Contains(string(r.body), "holds only") {
			t.Errorf("refusal %s does not say the vester holds too little", r.body)
		}
	})
	t.Run("through a handler", func(t *testing.T) {
		a := lifeAllocation(t, e, StateThroughHandler)
		amount, handler := decodeWithdrawThrough(t, e.claimData(t, a, a.Beneficiary(), nil))
		if handler != a.Distribution().Handler.Address {
			t.Errorf("claims through %s, want the distribution's handler %s", handler, a.Distribution().Handler.Address)
		}
		if want := a.Args.Unlocked(testStart); amount.Cmp(want) != 0 {
			t.Errorf("withdraws %s, want %s", amount, want)
		}
	})
}

// TestClaimFollowsTheVester: with the vester on a chain, a claim follows
// its schedules(id) and its balance, whatever the seed said.
func TestClaimFollowsTheVester(t *testing.T) {
	w := sharedWorld()
	a := w.FixtureAllocations[0]
	d := a.Distribution()
	c, _ := w.Contract(d.ContractID)
	token, _ := w.Token(d.TokenID)
	vesterAddr, tokenAddr := common.HexToAddress("0x7000"), common.HexToAddress("0x7100")
	now := testStart.Add(30 * 24 * time.Hour)
	chain := &fakeChain{id: 1337, now: now,
		addresses: map[string]common.Address{c.ID: vesterAddr, token.ID: tokenAddr},
		balances:  map[[2]common.Address]*big.Int{{tokenAddr, vesterAddr}: c.Balance},
		schedules: map[string]vesterState{}}
	e := newEnv(t, Options{Chain: chain})
	claimable := func() *big.Int {
		t.Helper()
		return decodeWithdraw(t, e.claimData(t, a, a.Beneficiary(), nil)).Amount
	}
	vested := a.Args.Unlocked(now)
	if got := claimable(); got.Cmp(vested) != 0 {
		t.Fatalf("claimable %s, want all %s vested", got, vested)
	}
	set := func(v vesterState) {
		chain.mu.Lock()
		chain.schedules[a.ID] = v
		chain.mu.Unlock()
	}

	part := new(big.Int).Div(vested, big.NewInt(3))
	set(vesterState{withdrawn: part})
	if got := claimable(); got.Cmp(new(big.Int).Sub(vested, part)) != 0 {
		t.Errorf("claimable %s after withdrawing %s of %s", got, part, vested)
	}

	// Cancelled at the start: vesting stopped there.
	set(vesterState{terminated: uint32(testStart.Unix()), withdrawn: new(big.Int)})
	if got, want := claimable(), a.Args.Unlocked(testStart); got.Cmp(want) != 0 || want.Cmp(vested) >= 0 {
		t.Errorf("claimable %s after a cancel at the start, want %s (less than %s)", got, want, vested)
	}

	// Revoked: nothing, even with nothing withdrawn.
	set(vesterState{terminated: revokedAt, withdrawn: new(big.Int)})
	e.claim(a.ID, obj{"sender": a.Beneficiary().Hex()}).wantAdminError(t, http.StatusBadRequest, kindValidation, "amount")

	// Transferred: the new address may ask.
	to := common.HexToAddress(e.fx.Wallets[3].Address)
	set(vesterState{withdrawalAddress: to, withdrawn: new(big.Int)})
	e.claimData(t, a, to, nil)

	// The vester's balance caps the claim.
	set(vesterState{withdrawn: new(big.Int)})
	chain.mu.Lock()
	chain.balances[[2]common.Address{tokenAddr, vesterAddr}] = big.NewInt(7)
	chain.mu.Unlock()
	if got := claimable(); got.Cmp(big.NewInt(7)) != 0 {
		t.Errorf("claimable %s from a vester holding 7, want 7", got)
	}

	chain.fail = true
	e.claim(a.ID, obj{"sender": a.Beneficiary().Hex()}).wantAdminError(t, http.StatusInternalServerError, kindInternal, "")
}

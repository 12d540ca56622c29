package sandbox

import (
	"bytes"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"allot/assets"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// withdrawABI is the vester's claim call as D8 writes it, parsed here from
// JSON rather than shared with the sandbox's own declaration.
const withdrawABI = `[{"type":"function","name":"withdraw","stateMutability":"payable","outputs":[],"inputs":[
	{"name":"withdrawalAmount","type":"uint256"},{"name":"rootIndex","type":"uint32"},
	{"name":"decodableArgs","type":"bytes"},{"name":"proof","type":"bytes32[]"}]}]`

type claimBody struct {
	Type       string `json:"__type"`
	Parameters []struct {
		TransactionID string `json:"transactionId"`
		Instructions  []struct {
			ChainID uint64 `json:"chainId"`
			From    string `json:"from"`
			To      string `json:"to"`
			Data    string `json:"data"`
			Value   string `json:"value"`
		} `json:"instructions"`
	} `json:"parameters"`
}

type withdrawCall struct {
	Amount        *big.Int
	RootIndex     uint32
	DecodableArgs []byte
	Proof         [][32]byte
}

func decodeWithdraw(t *testing.T, data string) withdrawCall {
	t.Helper()
	parsed, err := abi.JSON(strings.NewReader(withdrawABI))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := hexutil.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	selector := crypto.Keccak256([]byte("withdraw(uint256,uint32,bytes,bytes32[])"))[:4]
	if !bytes.Equal(raw[:4], selector) {
		t.Fatalf("selector %x, want %x", raw[:4], selector)
	}
	values, err := parsed.Methods["withdraw"].Inputs.Unpack(raw[4:])
	if err != nil {
		t.Fatal(err)
	}
	return withdrawCall{values[0].(*big.Int), values[1].(uint32), values[2].([]byte), values[3].([][32]byte)}
}

// ppmOf is total * ppm / 1e6, rounded down.
func ppmOf(total *big.Int, ppm int64) *big.Int {
	v := new(big.Int).Mul(total, big.NewInt(ppm))
	return v.Quo(v, big.NewInt(1_000_000))
}

func (e *env) claim(id string, body any) response {
	return e.admin("POST", "allocations/"+id+"/claim", body)
}

func TestClaim(t *testing.T) {
	e := newEnv(t, Options{})
	vester := contractAddress(t, e, e.fx.ContractIDs[0])
	for i, tc := range []struct {
		name string
		want func(total *big.Int) *big.Int // unlocked at testStart, worked out by hand from the schedule
	}{
		// Calendar: 10% at TGE (150 days before the start day), then 5%
		// every 30 days: five of them have passed.
		{"calendar", func(total *big.Int) *big.Int { return ppmOf(total, 350_000) }},
		// Interval: 15% at TGE, then 85% in 24 monthly steps from day 90:
		// two have passed. Each piece is rounded down on its own, in wei
		// (D16): 15% of the total, plus 2/24 of 85% of it.
		{"interval", func(total *big.Int) *big.Int {
			steps := ppmOf(total, 850_000)
			steps.Mul(steps, big.NewInt(2)).Quo(steps, big.NewInt(24))
			return steps.Add(steps, ppmOf(total, 150_000))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, wallet := e.fx.AllocationIDs[i], e.fx.Wallets[i].Address
			var proof proofBody
			e.admin("GET", "allocations/"+id+"/merkle-proof", nil).result(t, &proof)
			args, _ := hexutil.Decode(proof.DecodableArgs)
			a, _ := e.srv.World().Allocation(id)
			total := a.Args.Allocation.TotalAllocation
			want := tc.want(total)

			var claim claimBody
			r := e.claim(id, obj{"sender": strings.ToLower(wallet), "userCountryCode": "DE"})
			r.result(t, &claim)
			if claim.Type != EvmTransactionGroup || len(claim.Parameters) != 1 || len(claim.Parameters[0].Instructions) != 1 {
				t.Fatalf("claim %s", r.body)
			}
			p := claim.Parameters[0]
			in := p.Instructions[0]
			if !isUUID(p.TransactionID) || in.ChainID != DefaultChainID || in.From != wallet || in.To != vester || in.Value != "500000000000000" {
				t.Errorf("instruction %+v (transaction %s), want from %s to %s", in, p.TransactionID, wallet, vester)
			}
			call := decodeWithdraw(t, in.Data)
			if call.Amount.Cmp(want) != 0 {
				t.Errorf("withdraws %s, want %s unlocked of %s", call.Amount, want, total)
			}
			if call.RootIndex != proof.RootIndex || !bytes.Equal(call.DecodableArgs, args) || len(call.Proof) != len(proof.Proof) {
				t.Fatalf("withdraw arguments differ from the merkle proof")
			}
			for j, node := range call.Proof {
				if hexutil.Encode(node[:]) != proof.Proof[j] {
					t.Fatalf("proof node %d differs", j)
				}
			}
			txs := e.srv.Transactions()
			last := txs[len(txs)-1]
			if last.ID != p.TransactionID || last.Action != ActionClaim || last.Amount.Cmp(want) != 0 || last.AllocationIDs[0] != id {
				t.Errorf("recorded %+v", last)
			}

			// An explicit amount, exactly.
			e.claim(id, obj{"sender": wallet, "amount": json.Number("100.5")}).result(t, &claim)
			if got := decodeWithdraw(t, claim.Parameters[0].Instructions[0].Data).Amount; got.Cmp(units(100, 5, 1)) != 0 {
				t.Errorf("amount 100.5 withdraws %s", got)
			}
			// Everything claimable is fine, one unit more is not.
			e.claim(id, obj{"sender": wallet, "amount": json.Number(formatUnits(want))}).result(t, &claim)
			more := formatUnits(new(big.Int).Add(want, big.NewInt(1)))
			e.claim(id, obj{"sender": wallet, "amount": json.Number(more)}).wantAdminError(t, http.StatusBadRequest, kindValidation, "amount")
		})
	}
}

func TestClaimValidation(t *testing.T) {
	e := newEnv(t, Options{})
	id, wallet := e.fx.AllocationIDs[0], e.fx.Wallets[0].Address
	for _, tc := range []struct {
		name   string
		id     string
		body   any
		status int
		path   string
	}{
		{"no sender", id, obj{}, 400, "sender"},
		{"malformed sender", id, obj{"sender": "0x12"}, 400, "sender"},
		{"zero amount", id, obj{"sender": wallet, "amount": 0}, 400, "amount"},
		{"negative amount", id, obj{"sender": wallet, "amount": -1}, 400, "amount"},
		{"amount as string", id, obj{"sender": wallet, "amount": "1"}, 400, "amount"},
		{"amount too precise", id, `{"sender":"` + wallet + `","amount":1.0000000000000000001}`, 400, "amount"},
		{"unassigned country", id, obj{"sender": wallet, "userCountryCode": "XX"}, 400, "userCountryCode"},
		{"lowercase country", id, obj{"sender": wallet, "userCountryCode": "de"}, 400, "userCountryCode"},
		{"three-letter country", id, obj{"sender": wallet, "userCountryCode": "DEU"}, 400, "userCountryCode"},
		{"country not a string", id, obj{"sender": wallet, "userCountryCode": 49}, 400, "userCountryCode"},
		{"malformed id", "alloc-1", obj{"sender": wallet}, 400, "id"},
		{"unknown allocation", "00000000-0000-4000-8000-000000000000", obj{"sender": wallet}, 404, ""},
		{"token id as allocation", e.fx.TokenIDs[0], obj{"sender": wallet}, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.claim(tc.id, tc.body)
			if tc.status == 404 {
				r.wantAdminError(t, http.StatusNotFound, kindNotFound, "")
				return
			}
			r.wantAdminError(t, http.StatusBadRequest, kindValidation, tc.path)
		})
	}
	var ok claimBody
	e.claim(id, obj{"sender": wallet, "userCountryCode": "CH"}).result(t, &ok)
}

// TestClaimForAnyone: the production vester lets anyone send a claim
// (D19), so the service builds one for a sender that does not hold the
// allocation, from that sender, the same withdraw as the holder's.
func TestClaimForAnyone(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.fx.AllocationIDs[0]
	var own, other claimBody
	e.claim(id, obj{"sender": e.fx.Wallets[0].Address}).result(t, &own)
	e.claim(id, obj{"sender": e.fx.Wallets[1].Address}).result(t, &other)
	a, b := own.Parameters[0].Instructions[0], other.Parameters[0].Instructions[0]
	if b.From != e.fx.Wallets[1].Address || a.To != b.To || a.Data != b.Data || a.Value != b.Value {
		t.Errorf("claim from another sender %+v, want the holder's %+v from %s", b, a, e.fx.Wallets[1].Address)
	}
}

func TestClaimableFollowsClockAndWithdrawals(t *testing.T) {
	e := newEnv(t, Options{})
	id, wallet := e.fx.AllocationIDs[0], e.fx.Wallets[0].Address
	a, _ := e.srv.World().Allocation(id)
	total := a.Args.Allocation.TotalAllocation
	claimable := func() *big.Int {
		t.Helper()
		var c claimBody
		e.claim(id, obj{"sender": wallet}).result(t, &c)
		return decodeWithdraw(t, c.Parameters[0].Instructions[0].Data).Amount
	}
	if got := claimable(); got.Cmp(ppmOf(total, 350_000)) != 0 {
		t.Fatalf("claimable %s at start", got)
	}
	// 30 days on, one more 5% step.
	e.clock.Advance(30 * 24 * time.Hour)
	if got := claimable(); got.Cmp(ppmOf(total, 400_000)) != 0 {
		t.Fatalf("claimable %s a month on", got)
	}
	withdrawn := ppmOf(total, 300_000)
	if err := e.srv.SetWithdrawn(id, withdrawn); err != nil {
		t.Fatal(err)
	}
	// A smaller total reported late changes nothing.
	if err := e.srv.SetWithdrawn(strings.ToUpper(id), big.NewInt(5)); err != nil {
		t.Fatal(err)
	}
	if got := claimable(); got.Cmp(new(big.Int).Sub(ppmOf(total, 400_000), withdrawn)) != 0 {
		t.Fatalf("claimable %s after withdrawing 30%%", got)
	}
	if err := e.srv.SetWithdrawn(id, ppmOf(total, 400_000)); err != nil {
		t.Fatal(err)
	}
	e.claim(id, obj{"sender": wallet}).wantAdminError(t, http.StatusBadRequest, kindValidation, "amount")
	e.claim(id, obj{"sender": wallet, "amount": 1}).wantAdminError(t, http.StatusBadRequest, kindValidation, "amount")

	if err := e.srv.SetWithdrawn("00000000-0000-4000-8000-000000000000", big.NewInt(1)); err == nil {
		t.Error("SetWithdrawn took an unknown allocation")
	}
	if err := e.srv.SetWithdrawn(id, big.NewInt(-1)); err == nil {
		t.Error("SetWithdrawn took a negative total")
	}
}

// TestCallsMatchTheContracts checks the sandbox's calldata against the ABI
// of the project's compiled contracts, so that claims and stakes built here
// run on the sandbox chain, and the vester's getter is read as declared.
func TestCallsMatchTheContracts(t *testing.T) {
	for _, tc := range []struct {
		contract string
		method   abi.Method
		payable  bool
	}{
		{assets.VesterContract, withdrawMethod, true},
		{assets.VesterContract, withdrawThroughMethod, true},
		{assets.VesterContract, schedulesMethod, false},
		{assets.StakingContract, stakeMethod, true},
	} {
		artifact, err := assets.Contract(tc.contract)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := abi.JSON(bytes.NewReader(artifact.ABI))
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, m := range parsed.Methods {
			if m.Sig != tc.method.Sig {
				continue
			}
			found = true
			if !bytes.Equal(m.ID, tc.method.ID) || m.IsPayable() != tc.payable {
				t.Errorf("%s.%s: compiled %x payable %v, sandbox %x", tc.contract, m.Sig, m.ID, m.IsPayable(), tc.method.ID)
			}
			if tc.method.Outputs == nil {
				continue // the sandbox reads no result
			}
			if len(m.Outputs) != len(tc.method.Outputs) {
				t.Errorf("%s.%s: compiled %d results, sandbox %d", tc.contract, m.Sig, len(m.Outputs), len(tc.method.Outputs))
			}
			for i, out := range tc.method.Outputs {
				if i < len(m.Outputs) && m.Outputs[i].Type.String() != out.Type.String() {
					t.Errorf("%s.%s result %d: compiled %s, sandbox %s", tc.contract, m.Sig, i, m.Outputs[i].Type, out.Type)
				}
			}
		}
		if !found {
			t.Errorf("%s has no %s", tc.contract, tc.method.Sig)
		}
	}
}

func contractAddress(t *testing.T, e *env, id string) string {
	t.Helper()
	var list struct {
		Items []struct {
			ID      string `json:"id"`
			Address string `json:"address"`
		} `json:"items"`
	}
	for _, token := range e.fx.TokenIDs {
		e.admin("POST", "contracts", obj{"tokenId": token}).result(t, &list)
		for _, c := range list.Items {
			if c.ID == id {
				return c.Address
			}
		}
	}
	t.Fatalf("no contract %s", id)
	return ""
}

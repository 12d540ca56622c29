package wallet

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// feeForger is a node that cannot simulate (plainNode) and answers the
// pool's platformFee() with fee, on eth_call only: the policy reads the
// forged fee, the chain takes the real one, and the stake reverts after
// its approve was mined.
type feeForger struct {
	Node
	pool common.Address
	fee  *big.Int
}

func (n feeForger) CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if msg.To != nil && *msg.To == n.pool && bytes.HasPrefix(msg.Data, stakingABI.Methods["platformFee"].ID) {
		return stakingABI.Methods["platformFee"].Outputs.Pack(n.fee)
	}
	return n.Node.CallContract(ctx, msg, block)
}

// TestStakeLeavesAnAllowanceThatIsReset: the measured case of issue 30
// (item 5). A node forging the platform fee and failing simulation gets
// the approve mined and the stake reverted; the allowance left is read
// from the chain, and an approve of 0, allowed by the policy under the
// same pins, takes it back.
func TestStakeLeavesAnAllowanceThatIsReset(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	node := feeForger{Node: plainNode{f.node}, pool: f.pool, fee: new(big.Int)}
	stake := Call{ChainID: f.chain.ChainID(), From: alice, To: f.pool, Data: must(stakingABI.Pack("stake", ether(5))), Value: new(big.Int)}
	plan, err := PlanStake(ctx, node, stake)
	if err != nil || plan.Approve == nil {
		t.Fatalf("PlanStake = %+v, %v; want an approve first", plan, err)
	}
	pins := f.pins(t, PinStaking, f.pool)
	policy := StakePolicy{PoolID: "pool-1", Signer: alice, ChainID: f.chain.ChainID(), Amount: ether(5), Pool: f.pool, Pins: pins}
	approval, err := CheckStake(ctx, node, policy, plan.Calls())
	if err != nil {
		t.Fatalf("the forged fee is what the policy reads: %v", err)
	}
	drafts, err := Build(ctx, node, approval, f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	var states []State
	for _, d := range drafts {
		signed, err := d.Sign(f.alice)
		if err != nil {
			t.Fatal(err)
		}
		if err := Send(ctx, node, signed); err != nil {
			t.Fatal(err)
		}
		states = append(states, waitFinal(t, f, signed).State)
	}
	if states[0] != StateSuccess || states[1] != StateReverted {
		t.Fatalf("approve %s, stake %s; want the approve mined and the stake reverted", states[0], states[1])
	}

	left, err := LeftAllowance(ctx, f.node, plan.Token, alice, f.pool)
	if err != nil || left == nil || left.Amount.Cmp(ether(5)) != 0 || left.Symbol != "AT" {
		t.Fatalf("LeftAllowance = %+v, %v; want 5 AT", left, err)
	}
	if s := left.Sentence(); !strings.Contains(s, "may still move 5.00 AT of "+alice.Hex()) || !strings.Contains(s, f.pool.Hex()) {
		t.Errorf("Sentence = %q", s)
	}
	reset, err := left.ResetCall(f.chain.ChainID())
	if err != nil {
		t.Fatal(err)
	}
	rp := ResetPolicy{Signer: alice, ChainID: f.chain.ChainID(), Spender: f.pool, Token: plan.Token, Pins: pins}
	approval, err = CheckReset(ctx, f.node, rp, []Call{reset})
	if err != nil {
		t.Fatalf("CheckReset refused the reset: %v", err)
	}
	if !factsSay(approval, "allowance now: 5.00 AT (read from the chain); 0 after the reset") {
		t.Errorf("facts do not say the allowance: %+v", approval.Facts)
	}
	drafts, err = Build(ctx, f.node, approval, f.buildOptions(f.alice))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := drafts[0].Sign(f.alice)
	if err != nil {
		t.Fatal(err)
	}
	if err := Send(ctx, f.node, signed); err != nil {
		t.Fatal(err)
	}
	if s := waitFinal(t, f, signed); s.State != StateSuccess {
		t.Fatalf("reset: %+v", s)
	}
	if left, err := LeftAllowance(ctx, f.node, plan.Token, alice, f.pool); err != nil || left != nil {
		t.Errorf("after the reset LeftAllowance = %+v, %v; want nothing left", left, err)
	}
}

func factsSay(a *Approval, want string) bool {
	for _, l := range a.Facts {
		if strings.Contains(l.Label+": "+l.Value, want) {
			return true
		}
	}
	return false
}

func TestCheckResetRefuses(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	approve := func(token, spender common.Address, amount *big.Int) Call {
		return Call{From: alice, To: token, Data: must(tokenABI.Pack("approve", spender, amount)), Value: new(big.Int)}
	}
	reset := approve(f.token, f.pool, new(big.Int))
	for _, tc := range []struct {
		name   string
		calls  []Call
		policy func(*ResetPolicy)
		want   string
	}{
		{"an approve of more than 0", []Call{approve(f.token, f.pool, ether(1))}, nil, "call 1 approves 1.00 tokens; a reset approves 0"},
		{"an approve to an attacker", []Call{approve(f.token, attacker, new(big.Int))}, nil, "approves " + attacker.Hex() + ", not the staking contract"},
		{"another token", []Call{approve(f.vester, f.pool, new(big.Int))}, func(p *ResetPolicy) { p.Token = f.vester },
			"is not the stakingToken() of the pinned staking contract"},
		{"a spender not pinned", []Call{reset}, func(p *ResetPolicy) { p.Pins = Pins{} }, "is not pinned in the profile"},
		{"a token not pinned", []Call{reset}, func(p *ResetPolicy) { p.Pins.Tokens = []common.Address{attacker} }, "the token " + f.token.Hex() + " is not pinned"},
		{"a transfer", []Call{{From: alice, To: f.token, Data: must(tokenABI.Pack("transfer", attacker, ether(1))), Value: new(big.Int)}}, nil,
			"a reset signs only an approve of 0"},
		{"ether sent", []Call{{From: alice, To: f.token, Data: reset.Data, Value: big.NewInt(1)}}, nil, "with an approve, which takes none"},
		{"two calls", []Call{reset, reset}, nil, "exactly one approve of 0; there are 2 calls"},
		{"another signer", []Call{{From: attacker, To: f.token, Data: reset.Data, Value: new(big.Int)}}, nil, "not by the signer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ResetPolicy{Signer: alice, ChainID: f.chain.ChainID(), Spender: f.pool, Token: f.token, Pins: f.pins(t, PinStaking, f.pool)}
			if tc.policy != nil {
				tc.policy(&p)
			}
			a, err := CheckReset(ctx, f.node, p, tc.calls)
			if !errors.Is(err, ErrRefused) || a != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckReset = %v, %v; want a refusal saying %q", a, err, tc.want)
			}
		})
	}
	// Nothing left, nothing said.
	if left, err := LeftAllowance(ctx, f.node, f.token, alice, f.pool); err != nil || left != nil {
		t.Errorf("LeftAllowance with none approved = %+v, %v; want nil", left, err)
	}
}

// symbolNode answers every symbol() with symbol.
type symbolNode struct{ symbol string }

func (n symbolNode) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	return tokenABI.Methods["symbol"].Outputs.Pack(n.symbol)
}

// TestTokenSymbolIsPlain: a symbol the contract answers is shown only when
// it is a plain symbol; escapes, spaces or a long text read "tokens".
func TestTokenSymbolIsPlain(t *testing.T) {
	for symbol, want := range map[string]string{
		"MRD": "MRD", "USDC.e": "USDC.e", "": "tokens", "\x1b]52;c;eA==\x07": "tokens",
		"MRD (verified)": "tokens", "ABCDEFGHIJKLMNOPQ": "tokens", "М": "tokens",
	} {
		if got := TokenSymbol(context.Background(), symbolNode{symbol}, common.Address{1}); got != want {
			t.Errorf("symbol %q shown as %q, want %q", symbol, got, want)
		}
	}
}

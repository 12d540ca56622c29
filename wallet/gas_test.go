package wallet

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
)

// lyingNode is a node that rewrites some of its answers, as a hostile
// node would; a zero field answers honestly. It cannot simulate a batch.
type lyingNode struct {
	Node
	tip     *big.Int
	gas     uint64
	rewards *big.Int // every recent block's median tip
	balance *big.Int
	baseFee *big.Int // the latest block's
}

func (n lyingNode) HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error) {
	h, err := n.Node.HeaderByNumber(ctx, number)
	if err != nil || number != nil || n.baseFee == nil {
		return h, err
	}
	forged := types.CopyHeader(h)
	forged.BaseFee = n.baseFee
	return forged, nil
}

func (n lyingNode) SuggestGasTipCap(ctx context.Context) (*big.Int, error) {
	if n.tip != nil {
		return n.tip, nil
	}
	return n.Node.SuggestGasTipCap(ctx)
}

func (n lyingNode) EstimateGas(ctx context.Context, call ethereum.CallMsg) (uint64, error) {
	if n.gas != 0 {
		return n.gas, nil
	}
	return n.Node.EstimateGas(ctx, call)
}

func (n lyingNode) FeeHistory(ctx context.Context, blocks uint64, last *big.Int, percentiles []float64) (*ethereum.FeeHistory, error) {
	if n.rewards == nil {
		return n.Node.FeeHistory(ctx, blocks, last, percentiles)
	}
	h := &ethereum.FeeHistory{OldestBlock: big.NewInt(1)}
	for range blocks {
		h.Reward = append(h.Reward, []*big.Int{n.rewards})
	}
	return h, nil
}

func (n lyingNode) BalanceAt(ctx context.Context, account common.Address, block *big.Int) (*big.Int, error) {
	if n.balance != nil {
		return n.balance, nil
	}
	return n.Node.BalanceAt(ctx, account, block)
}

func gweis(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(params.GWei)) }

// buildRefused builds calls on node and returns the refusal's reasons, or
// fails the test when Build did not refuse.
func buildRefused(t *testing.T, node Node, opts BuildOptions, calls ...Call) string {
	t.Helper()
	drafts, err := Build(context.Background(), node, &Approval{Subject: "claim of allocation A", calls: calls}, opts)
	var refused *RefusedError
	if !errors.As(err, &refused) || !errors.Is(err, ErrRefused) || drafts != nil {
		t.Fatalf("Build: %d drafts, %v; want a refusal and no draft", len(drafts), err)
	}
	if refused.Subject != "claim of allocation A" {
		t.Errorf("the refusal is of %q", refused.Subject)
	}
	return strings.Join(refused.Reasons, "\n")
}

// TestBuildHoldsGasToItsCeilings: what a hostile node proposes for gas is
// refused before anything is signed, whatever else it says.
func TestBuildHoldsGasToItsCeilings(t *testing.T) {
	f := newFixture(t)
	alice := f.alice.Address()
	claim := f.withdrawCall(t, aliceLeaf, alice, ether(1))
	opts := f.buildOptions(f.alice)
	for _, tc := range []struct {
		name string
		node lyingNode
		opts func(*BuildOptions)
		want []string
		not  []string
	}{
		{name: "12M gas estimated for a withdraw", node: lyingNode{gas: 12_000_000},
			want: []string{"transaction 1 (withdraw) is given 14400000 gas, more than the 1000000 a withdraw may use"},
			not:  []string{"max_gas_fee", "priority fee"}},
		{name: "a tip of 8,000 gwei", node: lyingNode{tip: gweis(8000)},
			want: []string{"the node suggests a priority fee of 8000 gwei, out of proportion", "more than max_gas_fee 0.05 ether"}},
		{name: "a tip of 50 gwei, under max_gas_fee", node: lyingNode{tip: gweis(50)},
			want: []string{"priority fee of 50 gwei, out of proportion to the chain's base fee of"}, not: []string{"max_gas_fee"}},
		{name: "a tip of 8,000 gwei and a history that vouches for it", node: lyingNode{tip: gweis(8000), rewards: gweis(8000)},
			want: []string{"may cost up to", "more than max_gas_fee 0.05 ether"}, not: []string{"priority fee"}},
		{name: "a base fee and a tip of 80 gwei, far above the recent blocks'", node: lyingNode{baseFee: gweis(80), tip: gweis(80)},
			want: []string{"a max fee per gas of 240 gwei (base fee 80 gwei, tip 80 gwei), far above what the chain's last 10 blocks paid (a base fee of at most ", "gwei is accepted"},
			not:  []string{"priority fee"}},
		{name: "a profile's lower max_gas_fee", node: lyingNode{}, opts: func(o *BuildOptions) { o.MaxGasFee = big.NewInt(1) },
			want: []string{"more than max_gas_fee 0.000000000000000001 ether"}},
		{name: "too little ether for the fee and the gas", node: lyingNode{balance: new(big.Int).Set(claimFee)},
			want: []string{"holds 0.001 ether; the transactions may take up to", "(0.001 sent,"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := opts
			if tc.opts != nil {
				tc.opts(&o)
			}
			tc.node.Node = f.node
			reasons := buildRefused(t, tc.node, o, claim)
			for _, want := range tc.want {
				if !strings.Contains(reasons, want) {
					t.Errorf("reasons lack %q:\n%s", want, reasons)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(reasons, not) {
					t.Errorf("reasons hold %q:\n%s", not, reasons)
				}
			}
		})
	}

	// The same claim, honestly priced, is built: its worst case is its fee
	// and its gas at the max fee.
	drafts, err := Build(context.Background(), lyingNode{Node: f.node}, approved([]Call{claim}), opts)
	if err != nil {
		t.Fatal(err)
	}
	d := drafts[0]
	want := new(big.Int).Add(claimFee, new(big.Int).Mul(d.Tx.GasFeeCap(), new(big.Int).SetUint64(d.Tx.Gas())))
	if d.WorstCase().Cmp(want) != 0 || WorstCase(drafts).Cmp(want) != 0 || d.GasFallback {
		t.Errorf("worst case %s (batch %s), want %s; fallback %v", d.WorstCase(), WorstCase(drafts), want, d.GasFallback)
	}
}

// TestBuildChecksWhatASimulationWould: on a node that cannot simulate a
// batch, a stake the account cannot pay is refused in words before
// anything is signed, and one it can pay is built with the fallback gas
// limit, said to be one.
func TestBuildChecksWhatASimulationWould(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address() // holds 50 tokens
	node := lyingNode{Node: f.node}
	opts := f.buildOptions(f.alice)
	fee := new(big.Int).Set(platformFee)
	plan := func(tokens int64) []Call {
		data, _ := stakingABI.Pack("stake", ether(tokens))
		p, err := PlanStake(ctx, node, Call{From: alice, To: f.pool, Data: data, Value: fee})
		if err != nil {
			t.Fatal(err)
		}
		return p.Calls()
	}

	reasons := buildRefused(t, node, opts, plan(60)...)
	if want := "transaction 2 stakes 60.00 tokens; the account " + alice.Hex() + " holds 50.00 of the pool's token " + f.token.Hex(); !strings.Contains(reasons, want) {
		t.Errorf("reasons lack %q:\n%s", want, reasons)
	}
	stakeOnly := plan(60)[1:]
	reasons = buildRefused(t, node, opts, stakeOnly...)
	if want := "the pool " + f.pool.Hex() + " may move only 0.00 of them, and no approve of the stake comes first"; !strings.Contains(reasons, want) {
		t.Errorf("reasons lack %q:\n%s", want, reasons)
	}

	drafts, err := Build(ctx, node, approved(plan(50)), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(drafts) != 2 || !drafts[0].GasEstimated || drafts[0].GasFallback || drafts[1].GasEstimated || !drafts[1].GasFallback || drafts[1].Tx.Gas() != DependentGasLimit {
		t.Errorf("approve estimated %v, stake fallback %v with %d gas; want the stake's gas the fallback", drafts[0].GasEstimated, drafts[1].GasFallback, drafts[1].Tx.Gas())
	}
}

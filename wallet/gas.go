package wallet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/params"
	"github.com/shopspring/decimal"
)

// What gas may cost. The node proposes the gas limit (an estimate) and the
// price (the tip, the base fee), and the node may be hostile: a node that
// estimates 12M gas or suggests a tip of 8,000 gwei would make a claim of
// a few tokens cost more than it is worth. Build refuses, before anything
// is signed, a transaction above any of these ceilings; none of them is a
// warning.

// DefaultMaxGasFee is the most a transaction's gas may cost (its gas limit
// times its max fee per gas) when the profile sets no max_gas_fee: 0.05
// ether. Measured: a claim takes 87,268 gas on anvil and 201,570 on the
// sandbox chain, a first stake 151,154 and 606,338 (1,000,000 when the
// batch cannot be simulated, DependentGasLimit). At a base fee of 24 gwei
// (a max fee of twice that plus the tip) even the unsimulated stake stays
// below it, and an estimated claim stays below it up to a base fee near
// 100 gwei; the 0.92 ether of the hostile node's claim is far above.
var DefaultMaxGasFee = big.NewInt(50_000_000_000_000_000)

// gasLimits are the most gas each kind of call may be given: four times
// what it took on the sandbox chain (the dearer of the two measured, as
// its forks price new storage high), rounded up. Measured, in gas, on
// anvil and on the sandbox chain: withdraw 87,268 and 201,570; approve
// 46,400 and 134,320; a first stake 151,154 and 606,338. A call's limit
// above its ceiling is refused: it is not what such a call costs, whatever
// the node estimates.
var gasLimits = map[string]uint64{
	"withdraw": 1_000_000,
	"approve":  600_000,
	"stake":    2_500_000,
	// A transfer of beneficiary checks the same proof as a withdraw and
	// writes one slot where the withdraw moves tokens: the withdraw's.
	"transferBeneficiaryAddress": 1_000_000,
	// A Safe's execTransaction of an approve and a stake (or one
	// withdraw) through MultiSendCallOnly: their ceilings, and as much
	// again for the Safe's own work (its checks of the signatures, the
	// delegatecall, the nonce). A larger batch may use as much for each
	// of its calls (execCeiling).
	"execTransaction": 2 * (600_000 + 2_500_000),
}

// TipFloor is a priority fee always in proportion: what wallets offer by
// default on mainnet (1 to 2 gwei).
var TipFloor = big.NewInt(2 * params.GWei)

// feeHistoryBlocks is how many recent blocks the tips paid are read from.
const feeHistoryBlocks = 10

// tipHistoryFactor: a tip may be this many times the highest median tip
// of the recent blocks.
const tipHistoryFactor = 2

// recentBaseFactor: a max fee per gas may be this many times the highest
// base fee of the feeHistoryBlocks blocks before the head, plus TipFloor.
// The fee cap allot sets is twice the head's base fee plus the tip, and a
// head's base fee is at most 9/8 of its parent's (EIP-1559): an honest cap
// stays under 2.25 times the recent base fee plus the tip, and three times
// leaves a tip of 0.75 times the base fee on top of TipFloor.
const recentBaseFactor = 3

// price is what a batch pays per gas: the node's suggested tip and the
// latest base fee, and the fee cap made of them; head is the latest
// block's number.
type price struct {
	tip, baseFee, feeCap *big.Int
	head                 uint64
}

// priceOf reads the price from the node: the suggested tip, and twice the
// latest base fee plus the tip as the cap.
func priceOf(ctx context.Context, node Node) (price, error) {
	tip, err := node.SuggestGasTipCap(ctx)
	if err != nil {
		return price{}, fmt.Errorf("suggested tip: %w", err)
	}
	head, err := node.HeaderByNumber(ctx, nil)
	if err != nil {
		return price{}, fmt.Errorf("latest block: %w", err)
	}
	if head.BaseFee == nil {
		return price{}, fmt.Errorf("the node's chain has no base fee (EIP-1559)")
	}
	// Twice the base fee stays above it through six full blocks in a row.
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	return price{tip: tip, baseFee: head.BaseFee, feeCap: feeCap, head: head.Number.Uint64()}, nil
}

// checkFeeCap refuses a max fee per gas far above what the chain's own
// recent blocks paid: more than recentBaseFactor times the highest base
// fee of the feeHistoryBlocks blocks before the head, read from their
// headers (not eth_feeHistory), plus TipFloor. A node that inflates the
// head's base fee and the tip with it is refused though under
// max_gas_fee. A node that forges every header is not caught here;
// max_gas_fee still bounds what it can cost.
func checkFeeCap(ctx context.Context, node Node, p price, refused *RefusedError) error {
	recent, err := recentBaseFee(ctx, node, p.head)
	if err != nil || recent == nil {
		return err
	}
	limit := new(big.Int).Mul(recent, big.NewInt(recentBaseFactor))
	limit.Add(limit, TipFloor)
	if p.feeCap.Cmp(limit) > 0 {
		refused.refuse("a max fee per gas of %s gwei (base fee %s gwei, tip %s gwei), far above what the chain's last %d blocks paid (a base fee of at most %s gwei): at most %s gwei is accepted",
			gwei(p.feeCap), gwei(p.baseFee), gwei(p.tip), feeHistoryBlocks, gwei(recent), gwei(limit))
	}
	return nil
}

// recentBaseFee is the highest base fee of the feeHistoryBlocks blocks
// before block head, from their headers; nil when head is the first.
func recentBaseFee(ctx context.Context, node Node, head uint64) (*big.Int, error) {
	var highest *big.Int
	for n := head; n > 0 && head-n < feeHistoryBlocks; n-- {
		number := new(big.Int).SetUint64(n - 1)
		h, err := node.HeaderByNumber(ctx, number)
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", n-1, err)
		}
		if h.Number == nil || h.Number.Cmp(number) != 0 || h.BaseFee == nil || h.BaseFee.Sign() < 0 {
			return nil, fmt.Errorf("block %d: the node answers another block, or one with no base fee", n-1)
		}
		if highest == nil || h.BaseFee.Cmp(highest) > 0 {
			highest = new(big.Int).Set(h.BaseFee)
		}
	}
	return highest, nil
}

// checkTip refuses a tip out of proportion to what the chain pays: above
// TipFloor, the base fee and tipHistoryFactor times the highest median tip
// of the last feeHistoryBlocks blocks (eth_feeHistory; a node that does
// not answer it leaves the floor and the base fee). The node may lie about
// the history too; max_gas_fee still bounds what the lie can cost.
func checkTip(ctx context.Context, node Node, p price, refused *RefusedError) {
	limit := new(big.Int).Set(TipFloor)
	if p.baseFee.Cmp(limit) > 0 {
		limit.Set(p.baseFee)
	}
	if recent := recentTip(ctx, node); recent != nil {
		if recent.Mul(recent, big.NewInt(tipHistoryFactor)).Cmp(limit) > 0 {
			limit.Set(recent)
		}
	}
	if p.tip.Cmp(limit) > 0 {
		refused.refuse("the node suggests a priority fee of %s gwei, out of proportion to the chain's base fee of %s gwei and the tips of its recent blocks: at most %s gwei is accepted",
			gwei(p.tip), gwei(p.baseFee), gwei(limit))
	}
}

// recentTip is the highest median tip of the last feeHistoryBlocks
// blocks, or nil when the node does not say.
func recentTip(ctx context.Context, node Node) *big.Int {
	h, err := node.FeeHistory(ctx, feeHistoryBlocks, nil, []float64{50})
	if err != nil || h == nil || len(h.Reward) > feeHistoryBlocks {
		return nil
	}
	var highest *big.Int
	for _, block := range h.Reward {
		if len(block) == 1 && block[0] != nil && block[0].Sign() >= 0 && (highest == nil || block[0].Cmp(highest) > 0) {
			highest = new(big.Int).Set(block[0])
		}
	}
	return highest
}

// checkGas holds each draft to the gas limit of its kind of call and to
// maxGasFee.
func checkGas(drafts []*Draft, maxGasFee *big.Int, refused *RefusedError) {
	for i, d := range drafts {
		kind := d.Summary.Method
		ceiling, ok := gasLimits[kind]
		if inner, multi := multicallData(d.Tx.Data()); multi && kind == "multicall" {
			// A multicall of withdraws may use what they would alone.
			ceiling, ok = gasLimits["withdraw"]*uint64(len(inner)), true
		}
		if batch, known := execCeiling(d.Tx.Data()); known && kind == "execTransaction" {
			ceiling = batch // gas_safe.go
		}
		switch {
		case !ok:
			refused.refuse("transaction %d: allot knows no gas ceiling for %q: it signs only a withdraw, a multicall of withdraws, an approve, a stake and a transfer of beneficiary", i+1, kind)
		case d.Tx.Gas() > ceiling:
			refused.refuse("transaction %d (%s) is given %d gas, more than the %d a %s may use", i+1, kind, d.Tx.Gas(), ceiling, kind)
		}
		if fee := d.MaxGasFee(); fee.Cmp(maxGasFee) > 0 {
			refused.refuse("transaction %d (%s) may cost up to %s ether of gas (%d gas at %s gwei), more than max_gas_fee %s ether: the profile's ceiling, to raise only if the chain is this dear",
				i+1, kind, FormatUnits(fee), d.Tx.Gas(), gwei(d.Tx.GasFeeCap()), FormatUnits(maxGasFee))
		}
	}
}

// MaxGasFee is the most the draft's gas may cost: its gas limit times its
// max fee per gas.
func (d *Draft) MaxGasFee() *big.Int {
	return new(big.Int).Mul(d.Tx.GasFeeCap(), new(big.Int).SetUint64(d.Tx.Gas()))
}

// WorstCase is the most the draft takes from the account: what it sends
// and its gas at the max fee.
func (d *Draft) WorstCase() *big.Int {
	return new(big.Int).Add(d.MaxGasFee(), d.Tx.Value())
}

// WorstCase is the most the drafts take from the account together.
func WorstCase(drafts []*Draft) *big.Int {
	total := new(big.Int)
	for _, d := range drafts {
		total.Add(total, d.WorstCase())
	}
	return total
}

// gwei writes wei in gwei, exactly.
func gwei(wei *big.Int) string {
	return decimal.NewFromBigInt(wei, -9).String()
}

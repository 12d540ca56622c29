package wallet

import (
	"fmt"
	"math/big"

	"allot/internal/amount"
)

// Line is one labelled line of a call's description.
type Line struct{ Label, Value string }

// Lines describe the call the way the user must read it before it is
// signed, in order: the target, the sender, the function and every
// argument (amounts also in tokens), what a withdraw proves, and the ether
// sent, named as the fee it pays when the chain says so. The warnings are
// in Warnings. Values may hold what the service
// sent: sanitize them before display.
func (s *Summary) Lines() []Line {
	to := s.Call.To.Hex() + " (not a contract allot knows)"
	if s.Known != "" {
		to = s.Call.To.Hex() + " " + s.Known
	}
	lines := []Line{{"to", to}, {"from", s.Call.From.Hex()}}
	if s.Decoded() {
		lines = append(lines, Line{"function", s.Signature})
		unit := s.Unit
		if unit == "" {
			unit = "tokens"
		}
		for _, a := range s.Args {
			v := a.Value
			if a.Units != "" {
				v += " = " + amount.Tokens(a.Units) + " " + unit
			}
			lines = append(lines, Line{a.Name, v})
		}
	} else {
		lines = append(lines, Line{"calldata", fmt.Sprintf("%d bytes allot cannot decode", len(s.Call.Data))})
	}
	if wd := s.Withdraw; wd != nil {
		if a := wd.Allocation; a != nil {
			lines = append(lines, Line{"allocation", a.Allocation.ID + " of " + a.Allocation.OriginalBeneficiary.Hex()})
		}
		onChain := "not read"
		if wd.OnChainRoot != nil {
			onChain = wd.OnChainRoot.Hex()
		}
		lines = append(lines, Line{"proof root", wd.ComputedRoot.Hex()}, Line{"vester root", fmt.Sprintf("%d: %s", wd.RootIndex, onChain)})
	}
	for i, in := range s.Inner {
		// Each call of a multicall, without what it shares with it.
		for _, l := range in.Lines() {
			if l.Label != "to" && l.Label != "from" {
				lines = append(lines, Line{fmt.Sprintf("call %d %s", i+1, l.Label), l.Value})
			}
		}
		for _, w := range in.Warnings {
			lines = append(lines, Line{fmt.Sprintf("call %d warning", i+1), w.Message})
		}
	}
	sent := s.ValueEther()
	if s.Pays != "" {
		sent += " = the " + s.Pays + " (read from the chain)"
	}
	return append(lines, Line{"ether sent", sent})
}

// Lines describe the built transaction the way the user must read it
// before it is signed, after its call's Lines: its chain and nonce, its
// gas limit and where it came from (an estimate, or a fallback that is
// not one), the price per gas, and the worst case: the most it takes
// from the account, what it sends and its gas at the max fee.
func (d *Draft) Lines() []Line {
	gas := fmt.Sprint(d.Tx.Gas())
	switch {
	case d.GasEstimated:
		gas += " (estimated, with a margin)"
	case d.GasFallback:
		gas += " (a fallback, not an estimate: the node cannot simulate this batch, so the account's tokens, allowance and ether were checked directly; unused gas is not charged)"
	default:
		gas += " (given, not estimated)"
	}
	return []Line{
		{"chain", d.Tx.ChainId().String()},
		{"nonce", fmt.Sprint(d.Tx.Nonce())},
		{"gas limit", gas},
		{"max fee", fmt.Sprintf("%s wei per gas (%s gwei, of which a tip of %s gwei)", d.Tx.GasFeeCap(), gwei(d.Tx.GasFeeCap()), gwei(d.Tx.GasTipCap()))},
		{"worst case", fmt.Sprintf("%s ether: %s sent and %s of gas (gas limit × max fee)", FormatUnits(d.WorstCase()), FormatUnits(d.Tx.Value()), FormatUnits(d.MaxGasFee()))},
	}
}

// WorstCaseLine says the most a batch takes from the account, in one line
// for the question that asks to sign it: what it sends, the most its gas
// can cost, and the two together.
func WorstCaseLine(drafts []*Draft) string {
	sent, gas := new(big.Int), new(big.Int)
	for _, d := range drafts {
		sent.Add(sent, d.Tx.Value())
		gas.Add(gas, d.MaxGasFee())
	}
	subject, pay := "It sends", "pays"
	if len(drafts) != 1 {
		subject, pay = "They send", "pay"
	}
	return fmt.Sprintf("%s %s ether and %s at most %s ether in fees: at most %s ether in all.",
		subject, FormatUnits(sent), pay, FormatUnits(gas), FormatUnits(WorstCase(drafts)))
}

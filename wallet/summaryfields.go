package wallet

import "fmt"

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
		for _, a := range s.Args {
			v := a.Value
			if a.Units != "" {
				v += " = " + a.Units + " tokens"
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
	sent := s.ValueEther()
	if s.Pays != "" {
		sent += " = the " + s.Pays + " (read from the chain)"
	}
	return append(lines, Line{"ether sent", sent})
}

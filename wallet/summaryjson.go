package wallet

import (
	"encoding/json"

	"allot/internal/sanitize"

	"github.com/ethereum/go-ethereum/common"
)

type summaryJSON struct {
	ChainID    uint64          `json:"chainId"`
	From       string          `json:"from"`
	To         string          `json:"to"`
	Known      string          `json:"toLabel"`
	Contract   string          `json:"contract"`
	Function   string          `json:"function"`
	Signature  string          `json:"signature"`
	Selector   string          `json:"selector"`
	Args       []argJSON       `json:"args"`
	Unit       string          `json:"unit,omitempty"`
	ValueWei   string          `json:"valueWei"`
	ValueEther string          `json:"valueEther"`
	Withdrawal *withdrawalJSON `json:"withdrawal,omitempty"`
	Calls      []*Summary      `json:"calls,omitempty"` // a multicall's
	Warnings   []warningJSON   `json:"warnings"`
}

type argJSON struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
	Units string `json:"units,omitempty"`
}

type withdrawalJSON struct {
	Amount       string       `json:"amount"`
	RootIndex    uint32       `json:"rootIndex"`
	ProofLength  int          `json:"proofLength"`
	Leaf         common.Hash  `json:"leaf"`
	ComputedRoot common.Hash  `json:"computedRoot"`
	OnChainRoot  *common.Hash `json:"onChainRoot"`
	AllocationID *string      `json:"allocationId"`
	Beneficiary  *string      `json:"beneficiary"`
}

type warningJSON struct {
	Kind    WarningKind `json:"kind"`
	Message string      `json:"message"`
}

// MarshalJSON writes the summary for `-o json`: the call's target, function
// and arguments (amounts raw and in token units), the value in wei and in
// ether, the withdrawal's leaf details, and the warnings with their kinds.
// Function and signature are empty for calldata allot does not know.
func (s *Summary) MarshalJSON() ([]byte, error) {
	out := summaryJSON{
		ChainID:    s.Call.ChainID,
		From:       s.Call.From.Hex(),
		To:         s.Call.To.Hex(),
		Known:      s.Known,
		Contract:   s.Contract,
		Function:   s.Method,
		Signature:  s.Signature,
		Selector:   s.selectorHex(),
		Args:       make([]argJSON, len(s.Args)),
		Unit:       s.Unit,
		ValueWei:   bigString(s.Call.Value),
		ValueEther: s.ValueEther(),
		Warnings:   make([]warningJSON, len(s.Warnings)),
		Calls:      s.Inner,
	}
	for i, a := range s.Args {
		out.Args[i] = argJSON(a)
	}
	for i, w := range s.Warnings {
		out.Warnings[i] = warningJSON(w)
	}
	if w := s.Withdraw; w != nil {
		out.Withdrawal = &withdrawalJSON{
			Amount:       FormatUnits(w.Amount),
			RootIndex:    w.RootIndex,
			ProofLength:  w.ProofLength,
			Leaf:         w.Leaf,
			ComputedRoot: w.ComputedRoot,
			OnChainRoot:  w.OnChainRoot,
		}
		if a := w.Allocation; a != nil {
			id, beneficiary := sanitize.Line(a.Allocation.ID), a.Allocation.OriginalBeneficiary.Hex()
			out.Withdrawal.AllocationID, out.Withdrawal.Beneficiary = &id, &beneficiary
		}
	}
	return json.Marshal(out)
}

package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// readProposalFile reads a proposal file, bounded and checked
// (proposal.Read); a file that is not a consistent proposal is a check
// that failed.
func readProposalFile(path string) (*proposal.Proposal, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open the proposal: %w", err)
	}
	defer f.Close()
	p, err := proposal.Read(f)
	if err != nil {
		return nil, checkFailed{fmt.Sprintf("%s: %v", sanitize.Line(path), err)}
	}
	return p, nil
}

// showProposal shows the proposal in path, and where it stands against its
// Safe as the chain holds it now.
func (e *env) showProposal(ctx context.Context, path string, out format) error {
	p, err := readProposalFile(path)
	if err != nil {
		return err
	}
	s, err := e.open(ctx, opening{chain: "safe show FILE"})
	if err != nil {
		return err
	}
	if s.Profile.ChainID != p.ChainID {
		return fmt.Errorf("the proposal is for chain %d, the profile's is %d", p.ChainID, s.Profile.ChainID)
	}
	info, err := readSafeOn(ctx, s, "safe show", p.Safe)
	if err != nil {
		return err
	}
	return writeProposal(e.Stdout, p, info, out)
}

// proposalJSON is a proposal as the commands write it with -o json.
type proposalJSON struct {
	Safe        string         `json:"safe"`
	ChainID     uint64         `json:"chainId"`
	Nonce       string         `json:"nonce"`
	Act         string         `json:"act"`
	Subject     string         `json:"subject"`
	Amount      string         `json:"amount,omitempty"`
	NewAddress  string         `json:"newAddress,omitempty"` // a transfer's
	Operation   string         `json:"operation"`
	To          string         `json:"to"`
	Calls       []callJSON     `json:"calls"`
	DomainHash  string         `json:"domainHash"`
	MessageHash string         `json:"messageHash"`
	SafeTxHash  string         `json:"safeTxHash"`
	Signed      []string       `json:"signedBy"`
	Threshold   uint64         `json:"threshold"`
	State       proposal.State `json:"state"`
	Detail      string         `json:"detail"`
	Executed    string         `json:"executedBy,omitempty"`
}

type callJSON struct {
	To    string `json:"to"`
	Value string `json:"value"`
	Data  string `json:"data"`
}

// writeProposal writes p and its state against info: a list of fields, or
// with -o json one object.
func writeProposal(w io.Writer, p *proposal.Proposal, info safe.Info, out format) error {
	state, detail := p.StateAt(info)
	signed := []string{}
	for _, s := range p.Signatures {
		signed = append(signed, s.Owner.Hex())
	}
	if out == formatJSON {
		v := proposalJSON{Safe: p.Safe.Hex(), ChainID: p.ChainID, Nonce: p.Tx.Nonce.String(), Act: p.Act.Op, Subject: p.Act.Subject,
			Operation: p.Tx.Operation.String(), To: p.Tx.To.Hex(), DomainHash: p.Hashes.Domain.Hex(), MessageHash: p.Hashes.Message.Hex(),
			SafeTxHash: p.Hashes.SafeTx.Hex(), Signed: signed, Threshold: info.Threshold, State: state, Detail: detail}
		if p.Act.Amount != nil {
			v.Amount = p.Act.Amount.String()
		}
		if p.Act.Op == proposal.OpTransfer {
			v.NewAddress = p.Act.To.Hex()
		}
		for _, c := range p.Calls {
			v.Calls = append(v.Calls, callJSON{To: c.To.Hex(), Value: valueOf(c), Data: hexutil.Encode(c.Data)})
		}
		if p.Executed != ([32]byte{}) {
			v.Executed = p.Executed.Hex()
		}
		return writeJSON(w, v)
	}
	amount := "all that is claimable"
	switch {
	case p.Act.Op == proposal.OpTransfer:
		amount = "its future tokens go to " + p.Act.To.Hex()
	case p.Act.Op == proposal.OpBatch:
		amount = "each act reviewed under its own policy"
	case p.Act.Amount != nil:
		amount = wallet.FormatTokens(p.Act.Amount) + " tokens"
	}
	err := fields(w,
		"Safe", fmt.Sprintf("%s on chain %d, nonce %s", p.Safe.Hex(), p.ChainID, p.Tx.Nonce),
		"Act", fmt.Sprintf("%s of %s: %s", p.Act.Op, sanitize.Line(p.Act.Subject), amount),
		"Transaction", fmt.Sprintf("%s to %s, %d call(s)", p.Tx.Operation, p.Tx.To.Hex(), len(p.Calls)),
		"Domain hash", p.Hashes.Domain.Hex(),
		"Message hash", p.Hashes.Message.Hex(),
		"safeTxHash", p.Hashes.SafeTx.Hex(),
		"Signatures", fmt.Sprintf("%d of %d", len(p.Signatures), info.Threshold),
		"State", fmt.Sprintf("%s: %s", state, detail),
	)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	t := newTable(w, "OWNER", "SIGNED")
	for _, o := range info.Owners {
		mark := "-"
		if p.Signed(o) {
			mark = "yes"
		}
		t.row(o.Hex(), mark)
	}
	return t.flush()
}

func valueOf(c safe.InnerCall) string {
	if c.Value == nil {
		return "0"
	}
	return c.Value.String()
}

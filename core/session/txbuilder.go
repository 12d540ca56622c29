package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/internal/atomicfile"
	"allot/internal/regularfile"
	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/txbuilder"
)

// Safe{Wallet}'s Transaction Builder files (docs/custody.md): a
// proposal's calls written as one, and a teammate's one read as the act
// it makes for a Safe, reviewed under the signing policy before it is a
// proposal. `allot safe export|import` and the dashboard's proposal page
// and :safe import share this code, so that both write the same bytes
// and refuse the same files with the same reasons.

// TxBuilderRefusal is a Transaction Builder file that fails a check: no
// such file as the format says, a checksum that is not its content's,
// another chain's or another Safe's. The CLI exits 3 on it.
type TxBuilderRefusal struct{ Reason string }

func (e *TxBuilderRefusal) Error() string { return e.Reason }

// refusedf is a TxBuilderRefusal of the reason formatted.
func refusedf(format string, args ...any) error {
	return &TxBuilderRefusal{Reason: fmt.Sprintf(format, args...)}
}

// TxBuilderBatch is p's calls as a Transaction Builder batch made at now.
func TxBuilderBatch(p *proposal.Proposal, now time.Time) txbuilder.Batch {
	b := txbuilder.Batch{ChainID: p.ChainID, CreatedAt: now, Safe: p.Safe,
		Name:        fmt.Sprintf("allot: %s of %s", p.Act.Op, p.Act.Subject),
		Description: fmt.Sprintf("safeTxHash %s at nonce %s, as allot reviewed it", p.Hashes.SafeTx.Hex(), p.Tx.Nonce)}
	if len(p.Signatures) > 0 {
		b.Owner = p.Signatures[0].Owner
	}
	for _, c := range p.Calls {
		v := c.Value
		if v == nil {
			v = new(big.Int)
		}
		b.Transactions = append(b.Transactions, txbuilder.Transaction{To: c.To, Value: v, Data: c.Data})
	}
	return b
}

// TxBuilderFile is p's Transaction Builder file made at now, and its
// checksum as the file carries it (read back, as the import reads it).
func TxBuilderFile(p *proposal.Proposal, now time.Time) ([]byte, string, error) {
	var buf bytes.Buffer
	if err := txbuilder.Write(&buf, TxBuilderBatch(p, now)); err != nil {
		return nil, "", err
	}
	back, err := txbuilder.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return nil, "", fmt.Errorf("read back the Transaction Builder file: %w", err)
	}
	return buf.Bytes(), back.Checksum, nil
}

// WriteTxBuilder writes p's Transaction Builder file to path, whole or
// not at all, and returns its checksum.
func WriteTxBuilder(p *proposal.Proposal, path string, now time.Time) (string, error) {
	data, sum, err := TxBuilderFile(p, now)
	if err != nil {
		return "", err
	}
	if err := atomicfile.Write(path, data); err != nil {
		return "", fmt.Errorf("write the Transaction Builder file: %w", err)
	}
	return sum, nil
}

// ReadTxBuilder reads the Transaction Builder file at path (at most
// txbuilder.MaxFileSize bytes); one whose checksum is not its content's,
// or that is no such file, is a TxBuilderRefusal.
func ReadTxBuilder(path string) (txbuilder.Batch, error) {
	// A FIFO or a device would be waited on, or read from, for ever.
	file, _, err := regularfile.Open(path)
	if errors.Is(err, regularfile.ErrNotRegular) {
		return txbuilder.Batch{}, refusedf("%s: not a regular file", sanitize.Line(path))
	}
	if err != nil {
		return txbuilder.Batch{}, fmt.Errorf("open the Transaction Builder file: %w", err)
	}
	defer file.Close()
	b, err := txbuilder.Read(file)
	if err != nil {
		return b, refusedf("%s: %v", sanitize.Line(path), err)
	}
	return b, nil
}

// ImportedAct is the act a batch's calls make for the Safe info, as allot
// knows acts (ProposedAct): the batch must be for the profile's chain
// and, when it names one, for this Safe (else a TxBuilderRefusal).
func (s *Session) ImportedAct(ctx context.Context, rec *act.Recorder, info safe.Info, b txbuilder.Batch) (SafeAct, error) {
	a := SafeAct{Safe: info}
	if b.ChainID != s.Profile.ChainID {
		return a, refusedf("the file is for chain %d, the profile's is %d", b.ChainID, s.Profile.ChainID)
	}
	if b.Safe != (common.Address{}) && b.Safe != info.Address {
		return a, refusedf("the file was made for the Safe %s, not %s", b.Safe.Hex(), info.Address.Hex())
	}
	for _, t := range b.Transactions {
		a.Calls = append(a.Calls, safe.InnerCall{To: t.To, Value: t.Value, Data: t.Data})
	}
	named, err := s.ProposedAct(ctx, rec, info.Address, a.Calls)
	if err != nil {
		return a, err
	}
	a.Act = named
	return a, nil
}

// ProposedAct is the act calls make for the Safe, as allot knows acts
// (wallet.SplitSafeCalls): one stake, claim or transfer, or a batch of
// them named by how many of each.
func (s *Session) ProposedAct(ctx context.Context, rec *act.Recorder, safeAddr common.Address, calls []safe.InnerCall) (proposal.Act, error) {
	acts, err := wallet.SplitSafeCalls(wallet.InnerCalls(s.Profile.ChainID, safeAddr, calls))
	if err != nil {
		// A refusal of the policy, journaled as the policy's own review's
		// are (ReviewSafeTx).
		refused := &wallet.RefusedError{Subject: "Safe transaction of " + safeAddr.Hex(), Reasons: []string{sanitize.Line(err.Error())}}
		return proposal.Act{}, rec.Refused("safe "+proposal.OpBatch, safeAddr.Hex(), refused)
	}
	if len(acts) == 1 {
		switch a := acts[0]; a.Op {
		case proposal.OpStake:
			pool, err := s.PoolOfContract(ctx, a.Pool)
			if err != nil {
				return proposal.Act{}, err
			}
			return proposal.Act{Op: proposal.OpStake, Subject: pool.ID, Amount: a.Amount}, nil
		case proposal.OpTransfer:
			return proposal.Act{Op: proposal.OpTransfer, Subject: a.Allocation, To: a.To}, nil
		default:
			return proposal.Act{Op: proposal.OpClaim, Subject: a.Allocation, Amount: a.Amount}, nil
		}
	}
	counts := map[string]int{}
	for _, a := range acts {
		counts[a.Op]++
	}
	var parts []string
	for _, op := range []string{proposal.OpClaim, proposal.OpStake, proposal.OpTransfer} {
		if n := counts[op]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s(s)", n, op))
		}
	}
	return proposal.Act{Op: proposal.OpBatch, Subject: fmt.Sprintf("%d acts: %s", len(acts), strings.Join(parts, ", "))}, nil
}

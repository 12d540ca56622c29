package act

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/journal"
	"allot/wallet/safe/proposal"
)

// OpSafeSign is the journal's op of an owner's signature of a Safe
// transaction.
const OpSafeSign = "safe sign"

// SafeSignature journals owner's signature of proposal p before it is
// made, as a sign-in's message is: the safeTxHash, the Safe, its nonce
// and what the proposal does. A journal that cannot be written stops it:
// nothing is signed that the journal would not show afterwards.
func (r *Recorder) SafeSignature(p *proposal.Proposal, owner common.Address) error {
	if err := r.refusal(); err != nil {
		return err
	}
	data, err := json.Marshal(map[string]string{
		"safe":       p.Safe.Hex(),
		"nonce":      p.Tx.Nonce.String(),
		"safeTxHash": p.Hashes.SafeTx.Hex(),
		"owner":      owner.Hex(),
		"act":        p.Act.Op,
		"subject":    p.Act.Subject,
	})
	if err != nil {
		return fmt.Errorf("journal the signature: %w", err)
	}
	return r.Before(journal.Entry{Kind: journal.KindSignature, Op: OpSafeSign, Ref: p.Hashes.SafeTx.Hex(), Data: data})
}

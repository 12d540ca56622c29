// Package wallet is everything allot does with a user's keys and the chain,
// without a user interface: portal sign-in (D9, D10), merkle proof
// verification (D8), an allocation's life on its vester (D18), clear
// signing of the calldata the service hands out (D7, D11), building,
// signing and sending EIP-1559 transactions, and following them until they
// are mined. D1 to D18 in its comments are the entries of
// docs/deployment.md, and "operation N" the row N of its table of the
// service's operations.
//
// The dashboard and the headless commands both sit on top of it: every step
// that shows something to the user before it acts (the sign-in message, the
// decoded calldata, the signed transaction) is its own call, so that the
// caller decides when to go on.
//
//   - Sign-in: NewPortal; Prepare builds the message to show; SignIn checks,
//     signs and sends it; the Portal then attaches the session's token to
//     SubmissionAccounts and StakeParameters.
//   - Proofs: DecodeProof (a file) or ProofFromAPI (the service), then
//     VerifyProof; a Verification reports each check and marshals to the
//     JSON of `allot proof --verify -o json`.
//   - Transactions: ClaimCalls or StakeCall (then PlanStake for the approve
//     a stake may need) give Calls; DecodeCall describes each for the user;
//     the signing policy (CheckClaim, CheckStake) approves exactly what was
//     asked for, or refuses with a *RefusedError; Build turns an Approval
//     into Drafts; Draft.Sign, Send, and Track until final.
package wallet

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Signer signs for one account: an unlocked keystore account. Its methods
// must not keep or reveal the key.
type Signer interface {
	// Address is the account that signs.
	Address() common.Address
	// SignText signs text as EIP-191 personal_sign does: 65 bytes, V 27 or 28.
	SignText(text []byte) ([]byte, error)
	// SignTx signs tx for chainID.
	SignTx(tx *types.Transaction, chainID *big.Int) (*types.Transaction, error)
}

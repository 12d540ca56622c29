// Package vesterabi is the interface of the production vester allot reads
// and claims from: Magna's MerkleVester, version dist_v2.1.2
// (docs/allocations.md). It is written here, not taken from the sandbox's
// compiled contract, so that allot speaks to a real deployment in the
// production's own terms whatever the sandbox holds; the sandbox's vester
// implements the same interface, and the tests hold the two together.
//
// Only what allot calls, decodes or names is declared: the roots, the
// fees, an allocation's record (schedules), the token and its handlers,
// both withdraws, the transfer of beneficiary, multicall, the events of
// an allocation's life, and every custom error.
package vesterabi

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// Method names in ABI, as go-ethereum names them: the second overload of
// withdraw, the one through a post-claim handler, is "withdraw0".
const (
	Withdraw        = "withdraw"
	WithdrawHandler = "withdraw0"
	// Multicall is OpenZeppelin's multicall(bytes[]): several calls of the
	// vester in one transaction, which sends no ether (docs/deployment.md D19).
	Multicall = "multicall"
	// TransferBeneficiary changes where an allocation's tokens go
	// (docs/deployment.md D18).
	TransferBeneficiary = "transferBeneficiaryAddress"
)

// ABI is the production vester's interface as allot needs it.
var ABI = func() abi.ABI {
	parsed, err := abi.JSON(strings.NewReader(source))
	if err != nil {
		panic(fmt.Sprintf("vesterabi: %v", err))
	}
	return parsed
}()

// source is the fragment of the production ABI. getClaimFee is declared
// nonpayable there (it is not a view): allot reads it with eth_call all
// the same, which runs any function without keeping its changes.
const source = `[
{"type":"function","name":"merkleRoots","stateMutability":"view",
 "inputs":[{"name":"","type":"uint256"}],"outputs":[{"name":"","type":"bytes32"}]},
{"type":"function","name":"claimFee","stateMutability":"view",
 "inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getClaimFee","stateMutability":"nonpayable",
 "inputs":[{"name":"allocationId","type":"string"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"schedules","stateMutability":"view",
 "inputs":[{"name":"","type":"string"}],
 "outputs":[{"name":"withdrawalAddress","type":"address"},{"name":"terminatedTimestamp","type":"uint32"},
  {"name":"withdrawn","type":"uint256"},{"name":"terminatedWithdrawn","type":"uint256"},
  {"name":"fundedAmount","type":"uint256"},{"name":"terminatedAmount","type":"uint256"}]},
{"type":"function","name":"token","stateMutability":"view",
 "inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"getPostClaimHandlers","stateMutability":"view",
 "inputs":[],"outputs":[{"name":"postClaimHandlers","type":"address[]"}]},
{"type":"function","name":"withdraw","stateMutability":"payable",
 "inputs":[{"name":"withdrawalAmount","type":"uint256"},{"name":"rootIndex","type":"uint32"},
  {"name":"decodableArgs","type":"bytes"},{"name":"proof","type":"bytes32[]"}],"outputs":[]},
{"type":"function","name":"withdraw","stateMutability":"payable",
 "inputs":[{"name":"withdrawalAmount","type":"uint256"},{"name":"rootIndex","type":"uint32"},
  {"name":"decodableArgs","type":"bytes"},{"name":"proof","type":"bytes32[]"},
  {"name":"postClaimHandler","type":"address"},{"name":"extraData","type":"bytes"}],"outputs":[]},
{"type":"function","name":"transferBeneficiaryAddress","stateMutability":"nonpayable",
 "inputs":[{"name":"newAddress","type":"address"},{"name":"rootIndex","type":"uint32"},
  {"name":"decodableArgs","type":"bytes"},{"name":"proof","type":"bytes32[]"}],"outputs":[]},
{"type":"function","name":"multicall","stateMutability":"nonpayable",
 "inputs":[{"name":"data","type":"bytes[]"}],"outputs":[{"name":"results","type":"bytes[]"}]},
{"type":"event","name":"TransferredBeneficiary","anonymous":false,
 "inputs":[{"name":"id","type":"string","indexed":false},{"name":"newBeneficiary","type":"address","indexed":false}]},
{"type":"event","name":"ScheduleCanceled","anonymous":false,"inputs":[{"name":"id","type":"string","indexed":false}]},
{"type":"event","name":"ScheduleRevoked","anonymous":false,"inputs":[{"name":"id","type":"string","indexed":false}]},
{"type":"error","name":"AccessControlBadConfirmation","inputs":[]},
{"type":"error","name":"AccessControlUnauthorizedAccount","inputs":[{"name":"account","type":"address"},{"name":"neededRole","type":"bytes32"}]},
{"type":"error","name":"AddressEmptyCode","inputs":[{"name":"target","type":"address"}]},
{"type":"error","name":"AddressInsufficientBalance","inputs":[{"name":"account","type":"address"}]},
{"type":"error","name":"AlreadyFullyUnlocked","inputs":[]},
{"type":"error","name":"AlreadyTerminated","inputs":[]},
{"type":"error","name":"AmountZero","inputs":[]},
{"type":"error","name":"ClaimFeeExceedsMaximum","inputs":[]},
{"type":"error","name":"ClaimHandlerAlreadyWhitelisted","inputs":[]},
{"type":"error","name":"ClaimHandlerNotYetWhitelisted","inputs":[]},
{"type":"error","name":"DeflationaryTokensNotSupported","inputs":[]},
{"type":"error","name":"ETHTransferFailed","inputs":[]},
{"type":"error","name":"FailedCall","inputs":[]},
{"type":"error","name":"FailedInnerCall","inputs":[]},
{"type":"error","name":"InsufficientFunds","inputs":[]},
{"type":"error","name":"InvalidAllocation","inputs":[]},
{"type":"error","name":"InvalidAllocationType","inputs":[]},
{"type":"error","name":"InvalidFeeCollector","inputs":[]},
{"type":"error","name":"InvalidFeeFundsSent","inputs":[]},
{"type":"error","name":"InvalidFeeSetter","inputs":[]},
{"type":"error","name":"InvalidMerkleProof","inputs":[]},
{"type":"error","name":"InvalidToken","inputs":[]},
{"type":"error","name":"InvalidWithdrawal","inputs":[]},
{"type":"error","name":"NotCancellable","inputs":[]},
{"type":"error","name":"NotRevokable","inputs":[]},
{"type":"error","name":"NotTransferable","inputs":[]},
{"type":"error","name":"PostClaimHandlerNotWhitelisted","inputs":[]},
{"type":"error","name":"ReentrancyGuardReentrantCall","inputs":[]},
{"type":"error","name":"SafeERC20FailedOperation","inputs":[{"name":"token","type":"address"}]},
{"type":"error","name":"SameBeneficiaryAddress","inputs":[]},
{"type":"error","name":"ZeroBeneficiary","inputs":[]},
{"type":"error","name":"ZeroToken","inputs":[]}
]`

// Meanings say in plain words what the production vester's errors that a
// stakeholder meets mean, for reviews and failures.
var Meanings = map[string]string{
	"InsufficientFunds":              "more than is withdrawable: less is vested and not yet withdrawn, or the vester holds fewer tokens",
	"AmountZero":                     "nothing is withdrawable now",
	"AlreadyTerminated":              "the allocation is already cancelled or revoked",
	"NotTransferable":                "the allocation may not be transferred by this sender",
	"NotCancellable":                 "the allocation is not cancelable, or is fully unlocked",
	"NotRevokable":                   "the allocation is not revokable",
	"InvalidFeeFundsSent":            "the ether sent is not exactly the claim fee",
	"InvalidMerkleProof":             "the proof does not lead to the vester's root",
	"InvalidAllocation":              "the leaf does not match the allocation",
	"InvalidAllocationType":          "the leaf's allocation type is neither calendar nor interval",
	"PostClaimHandlerNotWhitelisted": "the post-claim handler is not on the vester's whitelist",
	"SameBeneficiaryAddress":         "the new withdrawal address is the current one",
	"ZeroBeneficiary":                "the new withdrawal address is zero",
	"AlreadyFullyUnlocked":           "the allocation is fully unlocked and can no longer be cancelled",
	"DeflationaryTokensNotSupported": "the token took a fee on transfer, which the vester refuses",
	"ReentrancyGuardReentrantCall":   "a contract called back into the vester during the claim",
}

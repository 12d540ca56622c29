package chain

import "allot/wallet/revert"

// Reverts of the sandbox contracts are decoded by allot/wallet/revert, the
// decoder the client uses too; these names keep the chain's API readable.
type (
	// Revert is a decoded revert: Name(param: value, ...).
	Revert = revert.Error
	// Param is one argument of a Revert.
	Param = revert.Param
)

var (
	// DecodeRevert decodes revert data.
	DecodeRevert = revert.Decode
	// RevertData returns the revert data a JSON-RPC error carries.
	RevertData = revert.Data
	// ErrNoRevertData and ErrUnknownRevert are the errors of DecodeRevert.
	ErrNoRevertData  = revert.ErrNoData
	ErrUnknownRevert = revert.ErrUnknown
)

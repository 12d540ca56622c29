package wallet

import "errors"

// Errors a caller tells apart with errors.Is.
var (
	// ErrNoContract: an address answered a contract call with nothing, as
	// an address without code does.
	ErrNoContract = errors.New("no contract at this address")
	// ErrWrongChain: an instruction, the node or a message is for another
	// chain than the profile's.
	ErrWrongChain = errors.New("wrong chain")
	// ErrWrongSender: a transaction would be sent from another account than
	// the one that signs.
	ErrWrongSender = errors.New("transaction is for another sender")
	// ErrNotSignedIn: a portal operation needs a sign-in first.
	ErrNotSignedIn = errors.New("not signed in to the portal")
	// ErrSessionExpired: the portal access token has expired; sign in again.
	ErrSessionExpired = errors.New("portal session expired")
	// ErrUnchecked: a check could not run to the end (no chain, a read
	// failed). It is neither a pass nor a failure, and never a pass.
	ErrUnchecked = errors.New("could not be checked")
)

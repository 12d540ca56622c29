package holder

import (
	"github.com/ethereum/go-ethereum/common"
)

// The accounts page's rows are the keystore's accounts, then the
// profile's Safes (rows): each is a wallet whose allocations C claims,
// sent by the unlocked key (docs/deployment.md D19: anyone may send a
// claim, the tokens go to the holder).

// selected is the address of the row the cursor is on; false for a key
// file that names none (known once unlocked), or no row.
func (u *unlock) selected() (common.Address, bool) {
	if u.cursor < len(u.accounts) {
		a := u.accounts[u.cursor]
		return a.Address, !a.Unnamed
	}
	a, ok := u.selectedSafe()
	return a.Address, ok
}

// claimAllRefused says why C cannot claim the selected wallet's
// allocations now; "" when it can.
func (u *unlock) claimAllRefused() string {
	if _, _, ok := u.ctx.Wallet.Account(); !ok {
		return "Unlock the key that pays first: enter on it"
	}
	if u.cursor < len(u.accounts) && u.accounts[u.cursor].Unnamed {
		return "unlock it first: its file names no address"
	}
	if _, ok := u.selected(); !ok {
		return "No wallet is selected"
	}
	return ""
}

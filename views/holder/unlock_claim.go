package holder

import (
	"github.com/ethereum/go-ethereum/common"
)

// The accounts page's rows are the keystore's accounts, then the
// profile's Safes that are accounts (safesPane.accounts): each is a
// wallet whose allocations C claims, sent by the unlocked key
// (docs/deployment.md D19: anyone may send a claim, the tokens go to the
// holder).

// rows counts the rows the cursor moves over.
func (u *unlock) rows() int { return len(u.accounts) + len(u.safes.accounts()) }

// selected is the address of the row the cursor is on; false for a key
// file that names none (known once unlocked), or no row.
func (u *unlock) selected() (common.Address, bool) {
	if u.cursor < len(u.accounts) {
		a := u.accounts[u.cursor]
		return a.Address, !a.Unnamed
	}
	safes := u.safes.accounts()
	if i := u.cursor - len(u.accounts); i < len(safes) {
		return safes[i], true
	}
	return common.Address{}, false
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

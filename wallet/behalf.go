package wallet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/safe"
)

// A claim sent for someone else (D19): anyone may send a vester's
// withdraw, pays its fee and gas, and the tokens go to the allocation's
// withdrawal address, never to the sender. The review says so in plain
// words, so that nobody pays a fee believing the tokens come to them.

// behalfFact is the line that says who pays and who is paid when the
// signer is not the one the tokens go to. amount is the withdraw's (0:
// all that is claimable).
func behalfFact(ctx context.Context, node Node, p ClaimPolicy, recipient common.Address, amount *big.Int, f *claimFacts) (Line, bool) {
	if p.Signer == recipient || node == nil {
		return Line{}, false
	}
	pays := "gas"
	if f.fee != nil && f.fee.Sign() > 0 {
		pays = FormatUnits(f.fee) + " ether and gas"
	}
	tokens := "the tokens"
	switch {
	case amount != nil && amount.Sign() > 0:
		tokens = FormatTokens(amount) + " " + f.unit
	case f.claimable != nil:
		tokens = FormatTokens(f.claimable) + " " + f.unit
	}
	kind := holderKind(ctx, node, recipient)
	if p.BySafe {
		// The Safe sends the withdraw by execTransaction: it pays the fee
		// from its own ether, and whoever executes it pays the gas.
		pays = "nothing but the gas, paid by whoever executes it"
		if f.fee != nil && f.fee.Sign() > 0 {
			pays = FormatUnits(f.fee) + " ether; whoever executes it pays the gas"
		}
		return Line{"the Safe pays", fmt.Sprintf("%s; %s go to %s, %s, not to the Safe", pays, tokens, recipient.Hex(), kind)}, true
	}
	return Line{"you pay", fmt.Sprintf("%s; %s go to %s, %s, not to you", pays, tokens, recipient.Hex(), kind)}, true
}

// holderKind says what holds an address: a wallet has no code there; a
// contract has, and a Safe is named as one, with how many of its owners
// sign for it, when its code is a canonical Safe's (safe.Read).
func holderKind(ctx context.Context, node Node, addr common.Address) string {
	code, err := node.CodeAt(ctx, addr, nil)
	switch {
	case err != nil:
		return "an account whose code could not be read"
	case len(code) == 0:
		return "a wallet"
	}
	if storage, ok := node.(safe.Node); ok {
		if info, err := safe.Read(ctx, storage, addr); err == nil {
			return fmt.Sprintf("a Safe (%d of its %d owners sign for it)", info.Threshold, len(info.Owners))
		}
	}
	return "a contract"
}

package wallet

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// What a simulation would catch, checked directly. A node that cannot
// simulate a batch (the embedded sandbox's) leaves a stake after its
// approve unchecked: the approve is mined, the stake reverts for want of
// tokens, the fees are spent and the allowance stays. So Build holds every
// batch to what the account has before anything is signed: the tokens a
// stake takes and what the pool may move of them, and the native coin the
// batch may take at worst.

// checkTokens refuses a stake the account cannot pay: fewer tokens than
// the stake, or an allowance short of it with no approve before it in the
// batch.
func checkTokens(ctx context.Context, node Node, from common.Address, calls []Call, refused *RefusedError) {
	type grant struct{ token, spender common.Address }
	approved := map[grant]*big.Int{}
	for i, c := range calls {
		m, values, ok := decodeKnown(c.Data)
		if !ok {
			continue
		}
		switch m.method.RawName {
		case "approve":
			spender, _ := values[0].(common.Address)
			amount, _ := values[1].(*big.Int)
			approved[grant{c.To, spender}] = amount
		case "stake":
			amount, _ := values[0].(*big.Int)
			token, err := StakingToken(ctx, node, c.To)
			if err != nil {
				refused.unchecked("transaction %d: the pool's token could not be read, so the account's tokens cannot be checked: %v", i+1, err)
				continue
			}
			balance, err := TokenBalance(ctx, node, token, from)
			if err != nil {
				refused.unchecked("transaction %d: the account's balance of %s could not be read: %v", i+1, token.Hex(), err)
				continue
			}
			if balance.Cmp(amount) < 0 {
				refused.refuse("transaction %d stakes %s tokens; the account %s holds %s of the pool's token %s",
					i+1, FormatTokens(amount), from.Hex(), FormatTokens(balance), token.Hex())
			}
			allowance, inBatch := approved[grant{token, c.To}]
			if !inBatch {
				if allowance, err = Allowance(ctx, node, token, from, c.To); err != nil {
					refused.unchecked("transaction %d: what the pool may move of the account's tokens could not be read: %v", i+1, err)
					continue
				}
			}
			if allowance.Cmp(amount) < 0 {
				refused.refuse("transaction %d stakes %s tokens; the pool %s may move only %s of them, and no approve of the stake comes first",
					i+1, FormatTokens(amount), c.To.Hex(), FormatTokens(allowance))
			}
		}
	}
}

// checkNative refuses a batch that may take more native coin than the
// account holds: what it sends, and its gas at the max fee.
func checkNative(ctx context.Context, node Node, from common.Address, drafts []*Draft, refused *RefusedError) {
	balance, err := node.BalanceAt(ctx, from, nil)
	if err != nil {
		refused.unchecked("the account's ether balance could not be read, so the fees cannot be checked: %v", err)
		return
	}
	if worst := WorstCase(drafts); balance.Cmp(worst) < 0 {
		sent := new(big.Int)
		for _, d := range drafts {
			sent.Add(sent, d.Tx.Value())
		}
		refused.refuse("the account %s holds %s ether; the transactions may take up to %s ether (%s sent, %s of gas at the max fee)",
			from.Hex(), FormatUnits(balance), FormatUnits(worst), FormatUnits(sent), FormatUnits(new(big.Int).Sub(worst, sent)))
	}
}

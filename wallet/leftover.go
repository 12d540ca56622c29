package wallet

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
)

// Leftover is an allowance a stake left behind: its approve was mined and
// the stake was not (it reverted, was dropped, or the node refused it), so
// the staking contract may still move that much of the owner's token.
type Leftover struct {
	Token, Owner, Spender common.Address
	// Amount is the allowance as read from the chain, in base units.
	Amount *big.Int
	// Symbol is the token's symbol() as the chain answers it, made safe
	// for a terminal; "tokens" when it has none allot can read.
	Symbol string
}

// maxSymbol bounds a symbol read from a contract: it is shown, not parsed.
const maxSymbol = 16

// LeftAllowance reads what spender may still move of owner's token: nil
// when that is 0, which leaves nothing to say or reset. It is read, never
// assumed from the approve: a later stake, or another wallet's approve,
// may have changed it.
func LeftAllowance(ctx context.Context, node Node, token, owner, spender common.Address) (*Leftover, error) {
	amount, err := Allowance(ctx, node, token, owner, spender)
	if err != nil {
		return nil, fmt.Errorf("read the allowance left: %w", err)
	}
	if amount.Sign() == 0 {
		return nil, nil
	}
	return &Leftover{Token: token, Owner: owner, Spender: spender, Amount: amount, Symbol: TokenSymbol(ctx, node, token)}, nil
}

// TokenSymbol is token's symbol() as the chain answers it, or "tokens"
// when it answers none, or one that is not a plain symbol (letters,
// digits, ".", "-", "_", "$", at most 16): a contract's answer is shown,
// and a symbol made of escapes or spaces could pass for another text.
func TokenSymbol(ctx context.Context, caller ethereum.ContractCaller, token common.Address) string {
	symbol, err := view[string](ctx, caller, tokenABI, token, "symbol")
	if err != nil || !plainSymbol(symbol) {
		return "tokens"
	}
	return symbol
}

func plainSymbol(s string) bool {
	if s == "" || len(s) > maxSymbol {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_$", r)
		if !ok {
			return false
		}
	}
	return true
}

// Sentence says the leftover in one line: how much, of which token, who
// may move it and whose it is.
func (l *Leftover) Sentence() string {
	return fmt.Sprintf("the staking contract %s may still move %s %s of %s (token %s)",
		l.Spender.Hex(), FormatTokens(l.Amount), l.Symbol, l.Owner.Hex(), l.Token.Hex())
}

// ResetCall is the call that takes the allowance back: approve(spender, 0)
// on the token, sent by the owner, sending nothing.
func (l *Leftover) ResetCall(chainID uint64) (Call, error) {
	data, err := tokenABI.Pack("approve", l.Spender, new(big.Int))
	if err != nil {
		return Call{}, fmt.Errorf("reset allowance: %w", err)
	}
	return Call{ChainID: chainID, From: l.Owner, To: l.Token, Data: data, Value: new(big.Int)}, nil
}

// ResetPolicy is what a reset of an allowance must match: the staking
// contract whose allowance it takes back and the token it is on.
type ResetPolicy struct {
	Signer  common.Address
	ChainID uint64
	// Spender is the staking contract that may move the tokens.
	Spender common.Address
	// Token is the ERC-20 the allowance is on.
	Token common.Address
	Pins  Pins
}

// CheckReset applies the signing policy to the reset of an allowance a
// stake left behind (see Leftover). It may sign exactly one
// approve(spender, 0) on the token, sending nothing, where the spender is
// a pinned staking contract with its code as pinned, and the token is
// pinned when the profile pins tokens, else the pinned staking contract's
// stakingToken(). An approve of 0 gives nothing away, but it is still a
// call to a contract: the same pins decide which. Anything else is a
// *RefusedError.
func CheckReset(ctx context.Context, node Node, p ResetPolicy, calls []Call) (*Approval, error) {
	refused := &RefusedError{Subject: "reset of the allowance of " + p.Spender.Hex()}
	a := &Approval{Subject: refused.Subject}
	calls = withValues(calls)
	if node == nil {
		refused.unchecked("no chain connection (rpc_url): the staking contract and its token cannot be read")
	} else if establishReset(ctx, node, p, refused, a) {
		allowanceFact(ctx, node, p, a)
	}
	if len(calls) != 1 {
		refused.refuse("a reset signs exactly one approve of 0; there are %d calls", len(calls))
	}
	for i, c := range calls {
		m, values, ok := checkAndDecode(refused, a, i, c, p.Signer, p.ChainID, p.Pins)
		if !ok {
			continue
		}
		if m.method.RawName != "approve" {
			refused.refuse("call %d is %s: a reset signs only an approve of 0", i+1, describe(m, values, c))
			continue
		}
		spender, _ := values[0].(common.Address)
		amount, _ := values[1].(*big.Int)
		if c.To != p.Token {
			refused.refuse("call %d approves on %s, not on the token %s", i+1, c.To.Hex(), p.Token.Hex())
		}
		if spender != p.Spender {
			refused.refuse("call %d approves %s, not the staking contract %s", i+1, spender.Hex(), p.Spender.Hex())
		}
		if amount == nil || amount.Sign() != 0 {
			refused.refuse("call %d approves %s tokens; a reset approves 0", i+1, FormatTokens(amount))
		}
		if c.Value.Sign() != 0 {
			refused.refuse("call %d sends %s ether with an approve, which takes none", i+1, FormatUnits(c.Value))
		}
	}
	if err := refused.err(); err != nil {
		return nil, err
	}
	a.calls = slices.Clone(calls)
	return a, nil
}

// establishReset holds the spender and the token to the pins, as a stake
// holds its pool and token; it reports whether both hold.
func establishReset(ctx context.Context, node Node, p ResetPolicy, refused *RefusedError, a *Approval) bool {
	note := checkPinned(ctx, node, refused, PinStaking, p.Spender, p.Pins, "staking contract")
	if note == "" {
		return false
	}
	a.Facts = append(a.Facts, Line{"staking contract", p.Spender.Hex() + note})
	if len(p.Pins.Tokens) > 0 {
		note := checkPinned(ctx, node, refused, PinToken, p.Token, p.Pins, "token")
		if note != "" {
			a.Facts = append(a.Facts, Line{"token", p.Token.Hex() + note})
		}
		return note != ""
	}
	staked, err := StakingToken(ctx, node, p.Spender)
	switch {
	case err != nil:
		refused.unchecked("the staking contract's token could not be read from the chain: %v", err)
	case staked != p.Token:
		refused.refuse("no tokens are pinned, and %s is not the stakingToken() of the pinned staking contract (%s): pin the token to reset its allowance", p.Token.Hex(), staked.Hex())
	default:
		a.Facts = append(a.Facts, Line{"token", p.Token.Hex() + " (the stakingToken() of the pinned staking contract; no tokens pinned)"})
		return true
	}
	return false
}

// allowanceFact says the allowance the reset takes back, read now.
func allowanceFact(ctx context.Context, node Node, p ResetPolicy, a *Approval) {
	left, err := LeftAllowance(ctx, node, p.Token, p.Signer, p.Spender)
	switch {
	case err != nil:
		a.Facts = append(a.Facts, Line{"allowance now", "not read: " + sanitize.Line(err.Error())})
	case left == nil:
		a.Facts = append(a.Facts, Line{"allowance now", "0 (read from the chain): the reset changes nothing"})
	default:
		a.Facts = append(a.Facts, Line{"allowance now", FormatTokens(left.Amount) + " " + left.Symbol + " (read from the chain); 0 after the reset"})
	}
}

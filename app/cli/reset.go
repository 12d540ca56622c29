package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/wallet"
)

var resetAllowanceCommand = command{
	name:    "reset-allowance",
	args:    "--pool ID|NAME [--token ID|NAME] --account ADDR [--erc20 ADDR] [--send [--wait] [--yes]] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary: "take back what a pool's staking contract may still move of the account's tokens (a stake whose approve was mined and whose stake failed): an approve of 0, reviewed and signed as any write",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var a resetArgs
		declarePool(fs, &a.pool)
		declareToken(fs, &a.token)
		fs.StringVar(&a.account, "account", "", "keystore account `ADDR` whose allowance is reset (required)")
		fs.StringVar(&a.erc20, "erc20", "", "the ERC-20 contract `ADDR` the allowance is on (default: the staking contract's stakingToken())")
		declareKeystore(fs, &a.ks)
		declareTx(fs, &a.tx)
		declareOutput(fs, &a.out)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			return e.resetAllowance(ctx, a)
		}
	},
}

// resetArgs is what `allot reset-allowance` was asked.
type resetArgs struct {
	pool, token, account, erc20 string
	ks                          keystoreFlags
	tx                          txFlags
	out                         format
}

// resetAllowance reads what the pool's staking contract may still move of
// the account's token and, when that is not 0, signs an approve of 0 on
// the one signing path, under the same pins as a stake (CheckReset).
func (e *env) resetAllowance(ctx context.Context, a resetArgs) error {
	if err := a.tx.check(e, "reset-allowance"); err != nil {
		return err
	}
	if a.pool == "" {
		return usagef("reset-allowance: --pool ID is required")
	}
	var erc20 common.Address
	if a.erc20 != "" {
		var err error
		if erc20, err = parseAddress("erc20", a.erc20); err != nil {
			return err
		}
	}
	s, pool, acct, err := openPool(ctx, e, "reset-allowance", a.pool, &a.token, a.account, a.ks)
	if err != nil {
		return err
	}
	defer acct.lock()
	spender, err := stakingContract(ctx, s, pool)
	if err != nil {
		return err
	}
	if erc20 == (common.Address{}) {
		if erc20, err = wallet.StakingToken(ctx, s.Chain, spender); err != nil {
			return fmt.Errorf("reset-allowance: the staking contract's token: %w", err)
		}
	}
	left, err := wallet.LeftAllowance(ctx, s.Chain, erc20, acct.address, spender)
	if err != nil {
		return err
	}
	if left == nil {
		_, err := fmt.Fprintf(e.Stdout, "Nothing to reset: the staking contract %s may move none of %s's tokens of %s.\n",
			spender.Hex(), acct.address.Hex(), erc20.Hex())
		return err
	}
	fmt.Fprintf(e.Stderr, "Now %s: an approve of 0 takes it back.\n", left.Sentence())
	call, err := left.ResetCall(s.Profile.ChainID)
	if err != nil {
		return err
	}
	known := map[common.Address]string{erc20: "the token the allowance is on"}
	batch := txBatch{subject: pool.ID, op: "reset-allowance", ops: []string{"reset-allowance"}, calls: []wallet.Call{call},
		known: known, check: s.ResetCheck(pool, acct.address, erc20)}
	return e.transact(ctx, s, acct, batch, a.tx, a.out)
}

// stakingContract is the pool's staking contract, as the token's contract
// list names it (the address the policy holds a stake to).
func stakingContract(ctx context.Context, s *opened, pool api.Pool) (common.Address, error) {
	p, err := s.StakePolicy(ctx, wallet.Pins{}, pool, common.Address{}, nil)
	if err != nil {
		return common.Address{}, err
	}
	if p.Pool == (common.Address{}) {
		return common.Address{}, fmt.Errorf("the token's contract list names no staking contract for pool %s", pool.ID)
	}
	return p.Pool, nil
}

// leftover says what a stake left behind once sent: when its approve was
// mined and the stake was not (reverted, dropped, refused by the node),
// the allowance read from the chain and the command that takes it back;
// when the approve was sent and the stake was not, and the approve's end
// is not known (no --wait), that it may leave one. Nothing is said of an
// allowance of 0.
func (e *env) leftover(ctx context.Context, o *stakeOrder, plan *wallet.StakePlan, statuses []wallet.Status) {
	if len(statuses) == 0 || len(statuses) == 2 && statuses[1].State == wallet.StateSuccess {
		return
	}
	reset := resetCommand(o, plan)
	switch approve := statuses[0]; {
	case approve.State == wallet.StateSuccess:
		left, err := wallet.LeftAllowance(ctx, o.s.Chain, plan.Token, plan.Stake.From, plan.Stake.To)
		switch {
		case err != nil:
			fmt.Fprintf(e.Stderr, "allot: the approve was mined and the stake was not; %v. Look before you stake again; to reset it:\n  %s\n", err, reset)
		case left != nil:
			fmt.Fprintf(e.Stderr, "Left behind: the approve was mined and the stake was not, so %s.\n"+
				"To take it back (an approve of 0, reviewed and signed as any write):\n  %s\n", left.Sentence(), reset)
		}
	case approve.State == wallet.StatePending && len(statuses) == 1:
		fmt.Fprintf(e.Stderr, "The approve was sent and the stake was not: once the approve is mined, the staking contract %s may move %s of your tokens (token %s). To take it back then:\n  %s\n",
			plan.Stake.To.Hex(), wallet.FormatTokens(plan.Amount), plan.Token.Hex(), reset)
	}
}

// resetCommand is the command that resets what plan's approve allowed.
func resetCommand(o *stakeOrder, plan *wallet.StakePlan) string {
	words := []string{"allot"}
	if !o.s.Sandbox {
		words = append(words, "--profile", shellWord(o.s.Name))
	}
	words = append(words, "reset-allowance", "--pool", shellWord(o.pool.ID), "--account", plan.Stake.From.Hex(),
		"--erc20", plan.Token.Hex(), "--send", "--wait")
	return strings.Join(words, " ")
}
